import { describe, expect, it } from 'vitest';
import { CONFIG, PROTOCOLS } from './index.js';

describe('the registry', () => {
  it('gives each name, config section and command to one protocol', () => {
    const unique = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    unique(PROTOCOLS.map((p) => p.name));
    unique(PROTOCOLS.flatMap((p) => (p.config ? [p.config.key] : [])));
    unique(PROTOCOLS.flatMap((p) => Object.keys(p.commands)));
  });

  it('names every suite of a protocol `<protocol>/<stage>`, and claims its primary suite in the report', async () => {
    for (const p of PROTOCOLS) {
      if (!p.suites) continue;
      for (const name of [p.suites.primary, ...p.suites.others])
        expect(name.startsWith(`${p.name}/`)).toBe(true);
      const section = await p.section();
      const [, stage] = p.suites.primary.split('/');
      expect(
        section.claims({
          hash: 'h',
          name: p.suites.primary,
          protocol: p.name,
          stage,
          role: 'system under test',
          tests: 1,
          createdAt: '',
        }),
      ).toBe(true);
    }
  });

  it("composes waver.yaml from the protocols' sections", () => {
    expect(CONFIG.validate({ ladder: { seeds: 2 } }).ladder).toMatchObject({ seeds: 2, attempts: 2 });
    expect(() => CONFIG.validate({ ladder: { seed: 2 } } as never)).toThrow(/unknown field/);
  });
});
