import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_MC_ITEMS } from '../../protocols/paraphrase/data/builtin-items.js';
import { openStore } from '../../store/store.js';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { paraphraseStore } from '../../test-support/protocols/paraphrase/store.js';

/**
 * `waver plan --design saa` sizes the test `waver check --compare --metric saa` runs (issue 37.4):
 * the plan prints that check, and the check, run as printed on the pilot, pairs the same items.
 */

const env = cleanEnv();
const dir = mkdtempSync(join(tmpdir(), 'waver-plan-saa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(assertBuilt);

// 25 items x 4 phrasings x 2 repeats: B wrong once on items 0-9, A once on item 20.
const pilot = join(dir, 'pilot.db');
{
  const store = openStore(pilot);
  const wrongOn = (t: { meta?: unknown }, repeat: number, items: (i: number) => boolean) => {
    const m = t.meta as { item: string; phrasing: string };
    const i = BUILTIN_MC_ITEMS.findIndex((x) => x.id === m.item);
    return m.phrasing === 'terse' && repeat === 1 && items(i);
  };
  paraphraseStore(
    store,
    [
      { label: 'A', identity: 'replay:A', answer: (t, r) => !wrongOn(t, r, (i) => i === 20) },
      { label: 'B', identity: 'replay:B', answer: (t, r) => !wrongOn(t, r, (i) => i < 10) },
    ],
    25,
  );
  store.close();
}

describe('plan --design saa and the check it sizes', () => {
  it('prints the check command, which pairs the pilot’s items as the plan read them', async () => {
    const planned = await runCli(
      ['plan', '--design', 'saa', '--pilot', pilot, '--compare', 'A,B', '--format', 'json'],
      { cwd: dir, env },
    );
    expect(planned.stderr).toBe('');
    const p = JSON.parse(planned.stdout) as {
      check: string;
      details: Record<string, number>;
      pilot: { pairs: number; clusters: number; metric: string; designEffect: number };
    };
    expect(p.check).toBe('waver check --compare A,B --metric saa --protocol paraphrase');
    // One pair per item: 25 items, nothing clustered.
    expect(p.pilot).toMatchObject({ pairs: 25, clusters: 25, metric: 'saa' });
    expect(p.pilot.designEffect).toBeCloseTo(1, 12);
    expect(p.details).toMatchObject({ saaA: 24 / 25, saaB: 15 / 25, p10: 10 / 25, p01: 1 / 25 });
    // From the discordant item shares, Connor's n by hand (scipy's norm.ppf(0.975), norm.ppf(0.8)).
    const [psi, d] = [11 / 25, 9 / 25];
    const connor =
      (1.959963984540054 * Math.sqrt(psi) + 0.8416212335729143 * Math.sqrt(psi - d * d)) ** 2 / d ** 2;
    expect(p.details.asymptoticN).toBe(Math.ceil(connor - 1e-9));

    const text = await runCli(['plan', '--design', 'saa', '--pilot', pilot, '--compare', 'A,B'], {
      cwd: dir,
      env,
    });
    expect(text.stdout).toContain('\nsizes: waver check --compare A,B --metric saa --protocol paraphrase\n');

    const args = p.check.split(' ').slice(1);
    const checked = await runCli([...args, '--store', pilot, '--format', 'json'], { cwd: dir, env });
    const c = JSON.parse(checked.stdout) as {
      compare: {
        metric: string;
        comparison: { n: number; clusters: number; mcnemar: { b: number; c: number } };
      };
    };
    expect(c.compare.metric).toBe('saa');
    expect(c.compare.comparison).toMatchObject({ n: 25, clusters: 25, mcnemar: { b: 10, c: 1 } });
    // b = 10 > c = 1 at p = 0.0117 (scipy binomtest(1, 11)): B is significantly worse on items.
    expect(checked.code).toBe(4);
    const md = await runCli([...args, '--store', pilot], { cwd: dir, env });
    expect(md.stdout).toContain('metric saa');
    expect(md.stdout).toContain(
      "25 pairs (item's SAA (1 when every phrasing x repeat of the item is right; an item not answered in full is left out) answered by both) in 25 items",
    );
  });

  it('--metric without --compare, or a name no protocol has, is exit 2 naming the flag', async () => {
    const alone = await runCli(['check', '--store', pilot, '--min-saa', '0.5', '--metric', 'saa'], {
      cwd: dir,
      env,
    });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--metric: --metric applies to --compare only');
    const unknown = await runCli(['check', '--store', pilot, '--compare', 'A,B', '--metric', 'sgs'], {
      cwd: dir,
      env,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--metric.*sgs/);
  });
});
