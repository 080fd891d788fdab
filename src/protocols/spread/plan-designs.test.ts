import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { quantileDesign, SPREAD_DESIGNS } from './plan-designs.js';

const head = { design: 'spread-quantiles', alpha: 0.05, power: 0.8, sides: 2 };
const design = SPREAD_DESIGNS[0];

describe('spread-quantiles: templates x items for a quantile within a width', () => {
  it.skipIf(python3Missing)('equals the formula computed with scipy', () => {
    const ref = runPython<{ templates: number; items: number }>(
      `
import json, math, sys
from scipy.stats import norm
a = json.load(sys.stdin)
z = norm.ppf(1 - a['alpha'] / 2); share = a['width'] / math.sqrt(2); zq = norm.ppf(a['q'])
T = math.ceil(a['q'] * (1 - a['q']) * (z * a['sd']) ** 2 / (norm.pdf(zq) ** 2 * share ** 2))
noise = a['p'] * (1 - a['p'])
target = a['sd'] + share / abs(zq)
I = max(math.ceil(noise * z * z / share ** 2), math.ceil(noise / (target ** 2 - a['sd'] ** 2)))
print(json.dumps({'templates': max(2, T), 'items': I}))`,
      { p: 0.6, sd: 0.08, width: 0.03, q: 0.05, alpha: 0.05 },
    );
    expect(quantileDesign({ p: 0.6, sd: 0.08, width: 0.03, q: 0.05, alpha: 0.05 })).toEqual(ref);
  });

  it('asks more of both for a narrower width, and names what it needs', () => {
    const wide = quantileDesign({ p: 0.6, sd: 0.08, width: 0.05, q: 0.05, alpha: 0.05 });
    const narrow = quantileDesign({ p: 0.6, sd: 0.08, width: 0.02, q: 0.05, alpha: 0.05 });
    expect(narrow.templates).toBeGreaterThan(wide.templates);
    expect(narrow.items).toBeGreaterThan(wide.items);
    const ctx = { head, test: { alpha: 0.05, power: 0.8, sides: 2 }, which: 'exact' } as never;
    const r = design?.plan(
      { design: 'spread-quantiles', alpha: 0.05, power: 0.8, sides: 2, p: [0.6], sd: 0.08, width: 0.03 },
      ctx,
    );
    expect(r?.n).toBe((r?.details.templates as number) * (r?.details.items as number));
    expect(() =>
      design?.plan({ design: 'spread-quantiles', alpha: 0.05, power: 0.8, sides: 2, p: [0.6] }, ctx),
    ).toThrow(/--sd/);
  });
});
