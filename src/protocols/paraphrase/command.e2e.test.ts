import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordingLine } from '../../models/replay.js';
import { requestFor } from '../../run/plan.js';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { CONFIG } from '../index.js';
import { paraphraseSettings } from './config.js';
import { resolveMcItems } from './data/datasets.js';
import { verifyKeys } from './key-check.js';
import { rewordItems } from './reword.js';
import { paraphraseSuite } from './run.js';
import type { ParaphraseTestMeta } from './suite.js';

beforeAll(assertBuilt);

/** The real binary, with an environment that holds only what the tests set. */
const waver = (args: string[], cwd?: string) =>
  runCli(['paraphrase', ...args], { env: cleanEnv(), ...(cwd ? { cwd } : {}) });

/**
 * A recorded "model" for the built-in items: right everywhere (in varied reply styles) except three
 * known flips, and one right answer given as option text. Answers are recorded per request, so both
 * repeats of a test get the same reply.
 */
async function recordModel(
  dir: string,
  name: string,
  skipItems: ReadonlySet<string> = new Set(),
): Promise<string> {
  const config = CONFIG.validate({});
  const settings = paraphraseSettings({});
  const dataset = await resolveMcItems();
  const rewords = await rewordItems(config, dataset.items);
  const suite = paraphraseSuite(
    config,
    settings,
    { dataset, items: dataset.items, keyCheck: verifyKeys(dataset.items), phrasings: settings.phrasings },
    rewords,
  );
  const lines: string[] = [];
  for (const test of suite.tests) {
    const meta = test.meta as unknown as ParaphraseTestMeta;
    if (skipItems.has(meta.item)) continue;
    const keyText = meta.options.find((o) => o.letter === meta.key)?.text;
    let text = {
      canonical: meta.key,
      reworded: `**${meta.key}**`,
      terse: ` ${meta.key}`,
      verbose: `The answer is ${meta.key}.`,
      'options-shuffled': `${meta.key}. ${keyText}`,
    }[meta.phrasing];
    if (meta.item === 'logic-at-least-one-knave' && meta.phrasing === 'terse') text = ' C';
    if (meta.item === 'quant-lamp-discount' && meta.phrasing === 'options-shuffled') text = 'B';
    if (meta.item === 'know-heptagon-sides' && meta.phrasing === 'verbose') text = 'I am not sure.';
    if (meta.item === 'trap-fourth-child' && meta.phrasing === 'reworded') text = 'Tessa';
    lines.push(
      recordingLine(requestFor(test, config.params), {
        text,
        finishReason: 'stop',
        usage: { inputTokens: 60, outputTokens: 2 },
      }),
    );
  }
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

interface Json {
  suite: {
    items: number;
    keysVerified: number;
    reworded: { alternate: number; generator: number };
    phrasings: string[];
  };
  leaderboard: { rank: number; label: string; identity: string }[];
  incomplete: {
    label: string;
    coverage: { share: number; errorsByKind: Record<string, number>; complete: boolean };
  }[];
  models: {
    label: string;
    identity: string;
    metrics: {
      coverage: {
        expected: number;
        done: number;
        failed: number;
        complete: boolean;
        errorsByKind: Record<string, number>;
      };
      rawAccuracy: { value: number; low: number; high: number; n: number };
      saa: { value: number; low: number; high: number; itemsScored: number; itemsExcluded: number };
      perPhrasing: { phrasing: string; accuracy: { value: number }; parsed: number; done: number }[];
      parse: { parsed: number; done: number };
      runInstability: { value: number; low: number; high: number; n: number; unavailable?: string };
      promptInstability: { value: number; low: number; high: number; n: number; unavailable?: string };
      flips: {
        item: string;
        phrasing: string;
        repeat: number;
        given: string;
        answer: string | null;
        key: string;
      }[];
      neverCorrect: string[];
    };
    cells: { status: string; reply: string | null }[];
  }[];
  run: { calls: number };
}

describe('waver paraphrase through the waver binary', () => {
  it('with a recorded model: exact SAA, raw accuracy, instabilities and flips; --out gets the same report; a re-run makes no call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-para-'));
    const model = await recordModel(dir, 'knows-most');
    const store = join(dir, 'store.db');
    const out = join(dir, 'report.json');
    const r = await waver([
      '--models',
      `replay:${model}`,
      '--store',
      store,
      '--format',
      'json',
      '--out',
      out,
    ]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(r.stdout);
    const j = JSON.parse(r.stdout) as Json;
    expect(j.suite).toMatchObject({ items: 32, keysVerified: 26, reworded: { alternate: 32, generator: 0 } });
    const m = j.models[0]?.metrics;
    if (!m) throw new Error('no model');
    expect(m.coverage).toMatchObject({ expected: 320, done: 320, failed: 0, complete: true });
    expect(m.saa).toMatchObject({ value: 29 / 32, itemsScored: 32, itemsExcluded: 0 });
    expect(m.saa.low).toBeLessThan(29 / 32);
    expect(m.saa.high).toBeLessThanOrEqual(1);
    expect(m.rawAccuracy).toMatchObject({ value: 314 / 320, n: 320 });
    expect(m.runInstability).toMatchObject({ value: 0, n: 160 });
    expect(m.promptInstability).toMatchObject({ value: 6 / 64, n: 64 });
    expect(m.perPhrasing.map((p) => [p.phrasing, p.accuracy.value * 64, p.parsed])).toEqual([
      ['canonical', 64, 64],
      ['reworded', 64, 64],
      ['terse', 62, 64],
      ['verbose', 62, 62],
      ['options-shuffled', 62, 64],
    ]);
    expect(m.parse).toEqual({ parsed: 318, done: 320, rate: 318 / 320 });
    expect(m.flips.map((f) => [f.item, f.phrasing, f.repeat, f.given, f.answer ?? null, f.key])).toEqual([
      ['logic-at-least-one-knave', 'terse', 0, 'C', 'C', 'B'],
      ['logic-at-least-one-knave', 'terse', 1, 'C', 'C', 'B'],
      ['quant-lamp-discount', 'options-shuffled', 0, 'B', 'A', 'C'],
      ['quant-lamp-discount', 'options-shuffled', 1, 'B', 'A', 'C'],
      ['know-heptagon-sides', 'verbose', 0, 'unparsed', null, 'B'],
      ['know-heptagon-sides', 'verbose', 1, 'unparsed', null, 'B'],
    ]);
    expect(m.neverCorrect).toEqual([]);
    expect(j.leaderboard).toEqual([expect.objectContaining({ rank: 1, identity: j.models[0]?.identity })]);
    expect(j.run.calls).toBe(320);

    const again = await waver(['--models', `replay:${model}`, '--store', store]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('run ');
    expect(again.stdout).toMatch(/calls 0 \(0 retries\)/);
    expect(again.stdout).toContain('| 1 | replay:');
    expect(again.stdout).toMatch(
      /\| 1 \| replay:\S+ \| 90\.6% \[\d+\.\d–\d+\.\d\] \| 32\/32 \| 98\.1% \[\d+\.\d–\d+\.\d\] \| 7\.5 pts \| 99\.4% \(318\/320\) \| 100\.0% \|/,
    );
    expect(again.stdout).toContain('### Flips (6)');
    expect(again.stdout).toContain('| know-heptagon-sides | verbose | 0 | unparsed | B | I am not sure. |');
  }, 120_000);

  it('a model below 90% coverage is reported with its errors, left out of the ranking, and the run exits 3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-para-'));
    const good = await recordModel(dir, 'good');
    const skip = new Set([
      'logic-same-kind',
      'quant-printers',
      'know-sodium-symbol',
      'trap-tablets',
      'trap-months-28-days',
    ]);
    const partial = await recordModel(dir, 'partial', skip);
    const r = await waver([
      '--models',
      `replay:${good},replay:${partial}`,
      '--store',
      join(dir, 's.db'),
      '--format',
      'json',
    ]);
    expect(r.code).toBe(3);
    const j = JSON.parse(r.stdout) as Json;
    expect(j.leaderboard.map((x) => x.label)).toEqual([`replay:${good}`]);
    expect(j.incomplete).toHaveLength(1);
    expect(j.incomplete[0]?.label).toBe(`replay:${partial}`);
    expect(j.incomplete[0]?.coverage).toMatchObject({
      share: 270 / 320,
      complete: false,
      errorsByKind: { no_recording: 50 },
    });
    const p = j.models.find((x) => x.label === `replay:${partial}`)?.metrics;
    expect(p?.saa).toMatchObject({ value: 24 / 27, itemsScored: 27, itemsExcluded: 5 });
    expect(p?.rawAccuracy.value).toBe((270 - 6) / 320);

    const md = await waver(['--models', `replay:${good},replay:${partial}`, '--store', join(dir, 's.db')]);
    expect(md.code).toBe(3);
    expect(md.stdout).toContain('### Incomplete models (coverage below 90.0%): reported, not ranked');
    expect(md.stdout).toMatch(
      /\| replay:\S+partial\.jsonl \| 84\.4% \(270\/320\) \| 270 \| 50 \| 0 \| no_recording 50 \|/,
    );
    expect(md.stdout).toContain('### Failed cells (50)');
  }, 120_000);

  it('a wrong key stops the run before any call: exit 2, the item and both values named, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-para-key-'));
    const model = await recordModel(dir, 'm');
    const dataset = join(dir, 'items.jsonl');
    const items = [
      {
        id: 'ok',
        stem: 'What is 6 x 7?',
        options: ['42', '48'],
        key: 'A',
        alternates: ['Multiply 6 by 7.'],
        rule: { kind: 'arithmetic', expression: '6 * 7' },
      },
      {
        id: 'q-bad',
        stem: 'A coat costs $80 after 20% off. Original price?',
        options: ['$96', '$100', '$104'],
        key: 'C',
        alternates: ['x'],
        rule: { kind: 'arithmetic', expression: '80 / (1 - 0.2)' },
      },
    ];
    writeFileSync(dataset, `${items.map((i) => JSON.stringify(i)).join('\n')}\n`);
    const store = join(dir, 'store.db');
    const out = join(dir, 'out.md');
    const r = await waver([
      '--models',
      `replay:${model}`,
      '--dataset',
      dataset,
      '--store',
      store,
      '--out',
      out,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `waver: ${dataset}: key: item 'q-bad': key C ($104) does not match its rule (80 / (1 - 0.2)), which computes 100 (option B: $100); no model was called\n`,
    );
    expect(r.stdout).toBe('');
    expect(existsSync(store)).toBe(false);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it.each([
    [
      'a key that is not one of the options',
      { id: 'k1', stem: 's', options: ['x', 'y'], key: 'D' },
      ":1: key: item 'k1': key 'D' is not one of the options (A, B)",
    ],
    [
      'fewer than two options',
      { id: 'k2', stem: 's', options: ['x'], key: 'A' },
      ":1: options: item 'k2': needs at least two options, got 1",
    ],
    [
      'a shuffle seed that is not an integer',
      { id: 'k3', stem: 's', options: ['x', 'y'], key: 'A', shuffleSeed: 0.5 },
      ":1: shuffleSeed: item 'k3': shuffle seed must be an integer, got 0.5",
    ],
    [
      'duplicate option letters',
      '{"id": "k4", "stem": "s", "options": {"A": "x", "B": "y", "A": "z"}, "key": "A"}',
      ":1: options.A: item 'k4': duplicate option letter 'A'",
    ],
  ])(
    'bad input — %s: exit 2, a message naming item and field, nothing written',
    async (_what, item, message) => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-para-bad-'));
      const dataset = join(dir, 'items.jsonl');
      writeFileSync(dataset, `${typeof item === 'string' ? item : JSON.stringify(item)}\n`);
      const recording = join(dir, 'any.jsonl');
      writeFileSync(recording, '');
      const store = join(dir, 'store.db');
      const out = join(dir, 'out.json');
      const r = await waver([
        '--models',
        `replay:${recording}`,
        '--dataset',
        dataset,
        '--store',
        store,
        '--out',
        out,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        message.startsWith(':') ? `waver: ${dataset}${message}` : `waver: ${message}`,
      );
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(store)).toBe(false);
      expect(existsSync(out)).toBe(false);
    },
    60_000,
  );

  it('--dry-run estimates the calls and writes nothing; --limit and --repeats shape the suite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-para-dry-'));
    const model = await recordModel(dir, 'm');
    const store = join(dir, 'store.db');
    const r = await waver([
      '--models',
      `replay:${model}`,
      '--store',
      store,
      '--dry-run',
      '--limit',
      '3',
      '--repeats',
      '3',
    ]);
    expect(r.code).toBe(0);
    // 3 items x 5 phrasings x 3 repeats.
    expect(r.stdout).toMatch(/\| replay:\S+ \| model \(paraphrase\/items\) \| 45 \| 0 \| 45 \|/);
    expect(existsSync(store)).toBe(false);
    const bad = await waver(['--models', `replay:${model}`, '--limit', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("waver: --limit: expected a positive integer, got '0'\n");
  }, 60_000);

  it('--dry-run needs no API key (an estimate calls nothing); the run itself still asks for one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-para-nokey-'));
    const store = join(dir, 'store.db');
    const args = ['--models', 'openai:gpt-4o-mini', '--limit', '2', '--store', store];
    const dry = await waver([...args, '--dry-run']);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/\| openai:gpt-4o-mini \| model \(paraphrase\/items\) \| 20 \| 0 \| 20 \|/);
    const run = await waver(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no API key: set OPENAI_API_KEY');
    expect(existsSync(store)).toBe(false);
  }, 60_000);

  it('without a generator, items with no alternate wording leave out reworded with a warning; chosen, it is an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-para-noreword-'));
    const model = await recordModel(dir, 'm');
    // A CSV with options as letter columns and its own column names, mapped by --fields.
    const dataset = join(dir, 'items.csv');
    writeFileSync(dataset, 'uid,q,A,B,C,gold\nk5,Which is largest?,2,9,4,B\nk6,Which is smallest?,7,3,8,B\n');
    const args = ['--models', `replay:${model}`, '--dataset', dataset, '--fields', 'id=uid,stem=q,key=gold'];
    const r = await waver([...args, '--dry-run']);
    expect(r.stderr).toContain(
      "paraphrase warning: 2 of 2 item(s) have no alternate wording and no generator is configured: the 'reworded' phrasing is left out (asking canonical, terse, verbose, options-shuffled)",
    );
    expect(r.code).toBe(0);
    // 2 items x 4 phrasings x 2 repeats.
    expect(r.stdout).toMatch(/\| replay:\S+ \| model \(paraphrase\/items\) \| 16 \| 0 \| 16 \|/);
    const chosen = await waver([...args, '--phrasings', 'canonical,reworded', '--dry-run']);
    expect(chosen.code).toBe(2);
    expect(chosen.stderr).toContain(
      "waver: generator: 2 item(s) have no alternate wording (first: 'k5') and no generator is configured",
    );
  }, 60_000);
});

const withModel = tinyModelPath ? describe : describe.skip;
withModel(
  `waver paraphrase with the real tiny GGUF model through the waver binary ${tinyModelMissing ?? ''}`,
  () => {
    it('runs every cell, scores what it can (structure, not quality) and reports SAA with a CI', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-para-gguf-'));
      const r = await waver([
        '--models',
        `gguf:${tinyModelPath}`,
        '--store',
        join(dir, 'store.db'),
        '--max-tokens',
        '6',
        '--limit',
        '8',
        '--format',
        'json',
      ]);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout) as Json;
      const model = j.models[0];
      if (!model) throw new Error('no model');
      const m = model.metrics;
      // 8 items x 5 phrasings x 2 repeats, every one answered by the real model and stored.
      expect(m.coverage).toMatchObject({ expected: 80, done: 80, failed: 0, complete: true });
      expect(model.cells).toHaveLength(80);
      expect(model.cells.every((c) => c.status === 'done' && typeof c.reply === 'string')).toBe(true);
      // A story model cannot answer: whatever it scores, every rate is a number in [0, 1] with its CI.
      const instability = [m.runInstability, m.promptInstability];
      // Never parsed, its answers cannot agree or disagree: instability is unavailable, with the parse rate.
      const neverParsed = m.parse.parsed === 0;
      for (const e of neverParsed ? [m.rawAccuracy, m.saa] : [m.rawAccuracy, m.saa, ...instability]) {
        expect(e.value).toBeGreaterThanOrEqual(0);
        expect(e.value).toBeLessThanOrEqual(1);
        expect(e.low).toBeLessThanOrEqual(e.value);
        expect(e.high).toBeGreaterThanOrEqual(e.value);
      }
      expect(m.saa.itemsScored).toBe(8);
      expect(m.parse.done).toBe(80);
      if (neverParsed)
        for (const e of instability) {
          expect(e.value ?? null).toBeNull();
          expect(e.unavailable).toMatch(/^no answer was parsed \(parse rate 0\/80\)/);
        }
      // Greedy decoding of the same prompt gives the same reply: no run instability.
      else expect(m.runInstability).toMatchObject({ value: 0, n: 40 });
      expect(j.suite.phrasings).toHaveLength(5);
      expect(j.leaderboard).toHaveLength(1);
    }, 300_000);
  },
);
