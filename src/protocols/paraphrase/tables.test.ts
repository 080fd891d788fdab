import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/store.js';
import { paraphraseStore } from '../../test-support/protocols/paraphrase/store.js';
import { paraphraseLeaderboard, paraphraseMetrics } from './metrics.js';
import { loadParaphraseResults, type ParaphraseResults } from './results.js';
import { formatParaphraseReport, withCi } from './tables.js';

function results(): ParaphraseResults {
  const design = { items: ['a', 'b', 'c'], phrasings: ['canonical', 'terse'], repeats: 1 };
  const obs = (answers: Record<string, string>) =>
    Object.entries(answers).flatMap(([item, two]) =>
      [...two].map((a, p) =>
        a === '!'
          ? {
              item,
              phrasing: design.phrasings[p] as string,
              repeat: 0,
              status: 'failed' as const,
              correct: false,
              error: { kind: 'server', message: '502 | bad gateway' },
            }
          : {
              item,
              phrasing: design.phrasings[p] as string,
              repeat: 0,
              status: 'done' as const,
              correct: a === 'A',
              answer: a,
              given: a,
              key: 'A',
              note: `reply ${a}`,
            },
      ),
    );
  const models = [
    {
      label: 'alpha',
      identity: 'id-alpha',
      cells: [],
      metrics: paraphraseMetrics(design, obs({ a: 'AA', b: 'AB', c: 'AA' }), {
        seed: 0,
        streamKey: 'id-alpha',
      }),
    },
    {
      label: 'beta',
      identity: 'id-beta',
      cells: [],
      metrics: paraphraseMetrics(design, obs({ a: 'AA', b: 'BB', c: 'AA' }), {
        seed: 0,
        streamKey: 'id-beta',
      }),
    },
    {
      label: 'gamma',
      identity: 'id-gamma',
      cells: [],
      metrics: paraphraseMetrics(design, obs({ a: '!!', b: 'A!', c: 'AA' }), {
        seed: 0,
        streamKey: 'id-gamma',
      }),
    },
  ];
  const board = paraphraseLeaderboard(models);
  return {
    suite: {
      hash: 'ab'.repeat(32),
      name: 'paraphrase/items',
      dataset: 'builtin',
      items: 3,
      itemIds: design.items,
      categories: { logic: 3 },
      phrasings: design.phrasings,
      repeats: 1,
      keysVerified: 2,
      reworded: { alternate: 0, generator: 0, generators: [] },
    },
    settings: { seed: 0, resamples: 2000, confidence: 0.95, minCoverage: 0.9 },
    models,
    leaderboard: {
      ranked: board.ranked.map((m) => m.identity),
      incomplete: board.incomplete.map((m) => m.identity),
    },
  };
}

describe('the paraphrase report', () => {
  const r = results();
  const md = formatParaphraseReport(r, 'md', {
    dropped: [{ item: 'z', reason: 'rewrite rejected: empty rewrite' }],
  });

  it('ranks complete models, with no overlap warning, and reports the incomplete one apart', () => {
    expect(md).toContain(
      "dataset `builtin` (waver's own items, licence: MIT, as waver): 3 items (logic 3) x 2 phrasings (canonical, terse) x 1 repeats = 6 cells per model",
    );
    expect(md).toContain(
      'Keys: 2 of 3 recomputed by a rule before any call, all matched; 1 taken as the dataset states them.',
    );
    expect(md).toContain(
      'Left out before the run (rewording failed, for every model): z (rewrite rejected: empty rewrite).',
    );
    expect(md).toMatch(/\| 1 \| alpha \| 66\.7% \[\d+\.\d–\d+\.\d\] \| 3\/3 \| 83\.3% \[/);
    expect(md).toMatch(/\| 2 \| beta \| 66\.7% /);
    expect(md).not.toMatch(/overlap:|warning:/);
    expect(md).toContain('### Incomplete models (coverage below 90.0%): reported, not ranked');
    expect(md).toMatch(/\| gamma \| 50\.0% \(3\/6\) \| 3 \| 3 \| 0 \| server 3 \|/);
  });

  it('shows what cannot be computed as — with the reason, never 0', () => {
    // One repeat: run instability is unavailable.
    expect(md).toContain('— (needs at least 2 repeats)');
    expect(
      withCi({
        value: undefined,
        low: undefined,
        high: undefined,
        n: 0,
        over: 'x',
        unavailable: 'no item has all its cells done',
      }),
    ).toBe('— (no item has all its cells done)');
  });

  it('lists flips and failed cells, escaping table pipes', () => {
    expect(md).toContain(
      '### Flips (1): wrong or unparsed answers to items the model answered correctly elsewhere',
    );
    expect(md).toContain('| alpha | b | terse | 0 | B | A | reply B |');
    expect(md).toContain('Never answered correctly by beta (1 items, lost to SAA without a flip): b');
    expect(md).toContain('### Failed cells (3): counted as wrong and in coverage');
    expect(md).toContain('| gamma | a | canonical | 0 | server: 502 \\| bad gateway |');
  });

  it('JSON: leaderboard with ranks, the incomplete model, every model in full, unavailable values as null with their reason', () => {
    const j = JSON.parse(formatParaphraseReport(r, 'json')) as {
      leaderboard: { rank: number; label: string; gap: number }[];
      incomplete: { label: string }[];
      models: { metrics: { runInstability: { value: null; unavailable: string } } }[];
      warnings?: unknown;
    };
    expect(j.leaderboard.map((x) => [x.rank, x.label])).toEqual([
      [1, 'alpha'],
      [2, 'beta'],
    ]);
    expect(j.leaderboard[0]?.gap).toBeCloseTo(5 / 6 - 2 / 3, 12);
    expect(j.incomplete.map((x) => x.label)).toEqual(['gamma']);
    expect(j.models).toHaveLength(3);
    expect(j.models[0]?.metrics.runInstability).toMatchObject({
      value: null,
      unavailable: 'needs at least 2 repeats',
    });
    expect(j.warnings).toBeUndefined();
  });
});

describe("a run's output ends on the comparison (issue 37.1)", () => {
  const s = openStore(':memory:');
  paraphraseStore(s, [
    { label: 'steady', identity: 'replay:steady', answer: () => true },
    { label: 'shaky', identity: 'replay:shaky', answer: (_t, repeat) => repeat === 0 },
  ]);
  const hash = s.suites.list()[0]?.hash as string;
  const results = loadParaphraseResults(s, hash, { seed: 0, resamples: 50 });

  it('ranks the models with the paired test check --compare runs, last in the Markdown and in the JSON', () => {
    const md = formatParaphraseReport(results, 'md');
    const tail = md.slice(md.lastIndexOf('### Comparison'));
    expect(md.lastIndexOf('### Comparison')).toBeGreaterThan(md.indexOf('### Leaderboard'));
    // 12 items x 4 phrasings x 2 repeats; shaky wrong on every second repeat: b = 0, c = 48.
    expect(tail).toContain('**steady ranks first: significantly more accurate than shaky (alpha 0.05)');
    expect(tail).toMatch(
      /\| steady − shaky \| \+0\.500 \[95% CI \+0\.\d{3}, \+0\.\d{3}\] \| 96 \| 12 \| 0 \| 48 \|/,
    );
    expect(tail).toContain('Reproduce: `waver check --compare shaky,steady --suite');
    const json = JSON.parse(formatParaphraseReport(results, 'json')) as {
      comparison: { ranking: { label: string }[] };
    };
    expect(json.comparison.ranking.map((m) => m.label)).toEqual(['steady', 'shaky']);
  });

  it('the report leaves it out of the section: its eval page opens on it instead', () => {
    expect(formatParaphraseReport(results, 'md', { comparison: false })).not.toContain('Comparison');
    expect(JSON.parse(formatParaphraseReport(results, 'json', { comparison: false }))).not.toHaveProperty(
      'comparison',
    );
  });
});
