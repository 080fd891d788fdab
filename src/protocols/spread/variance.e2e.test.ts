import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { scratchDir } from '../../test-support/scratch.js';
import {
  completion,
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../test-support/scripted-chat-server.js';

beforeAll(assertBuilt);

interface Component {
  component: string;
  variance: number;
  share: number | null;
  lo: number | null;
  hi: number | null;
}
type Variance =
  | { components: Component[]; factors: string[]; itemsUsed: number; itemsDropped: number; repeats: number }
  | { unavailable: string };
interface Json {
  templates: { id: string; text: string }[];
  models: { label: string; variance: Variance }[];
}

/** Six items (q0..q5) whose right option reads RIGHT. */
function items(dir: string): void {
  const lines = Array.from({ length: 6 }, (_, i) => {
    const choices = ['WRONG0', 'WRONG1', 'WRONG2', 'WRONG3'];
    choices[i % 4] = 'RIGHT';
    return JSON.stringify({
      id: `q${i}`,
      question: `Which word is right? (${i})`,
      choices,
      answer: 'ABCD'[i % 4],
    });
  });
  writeFileSync(join(dir, 'items.jsonl'), `${lines.join('\n')}\n`);
}

const fieldsSplit = (text: string) => (text.split(/Options|OPTIONS|options/)[0] ?? '').includes('\n');
const sampleVariance = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
};
const byName = (v: Variance, name: string) => {
  if ('unavailable' in v) throw new Error(`variance unavailable: ${v.unavailable}`);
  const c = v.components.find((x) => x.component === name);
  if (!c) throw new Error(`no component ${name}`);
  return c;
};

/**
 * Known components. Model `byitem` is right on the even items under every template: all the
 * variance is the item's, 6/5 x 1/4 = 0.3 (the unbiased ANOVA estimate of a 0/1 split in half).
 * Model `bytemplate` is right under the templates whose fields are not split by a newline, on
 * every item: all of it is the template's, the sample variance of those 0/1 template accuracies.
 */
describe('waver spread: where the variance comes from, against a loopback API with known components', () => {
  let server: ScriptedChatServer;
  let dir: string;
  beforeAll(async () => {
    server = await startScriptedChatServer((prompt, model) => {
      const item = Number(/\((\d)\)/.exec(prompt)?.[1]);
      const right = model === 'byitem' ? item % 2 === 0 : !fieldsSplit(prompt);
      return completion({ content: right ? 'RIGHT' : 'WRONG0' }, 'stop');
    });
    dir = scratchDir('spread-variance');
    items(dir);
  });
  afterAll(() => server.close());
  const waver = (args: string[]) => runCli(args, { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: 'sk-test' }) });
  const spread = (extra: string[]) =>
    waver([
      'spread',
      '--models',
      `openai:byitem@${server.url},openai:bytemplate@${server.url}`,
      '--dataset',
      'items.jsonl',
      '--templates',
      '10',
      '--format',
      'json',
      ...extra,
    ]);

  it('gives item and template components equal to the design, with intervals and n', async () => {
    const r = await spread([]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Json;
    const [byitem, bytemplate] = out.models.map((m) => m.variance) as [Variance, Variance];
    expect(byitem).toMatchObject({ factors: ['template'], itemsUsed: 6, itemsDropped: 0, repeats: 1 });
    expect(byName(byitem, 'item').variance).toBeCloseTo(0.3, 12);
    expect(byName(byitem, 'item').share).toBeCloseTo(1, 12);
    expect(byName(byitem, 'template').variance).toBeCloseTo(0, 12);
    expect(byName(byitem, 'residual').variance).toBeCloseTo(0, 12);
    const b = out.templates.map((t) => (fieldsSplit(t.text) ? 0 : 1));
    expect(new Set(b).size).toBe(2);
    expect(byName(bytemplate, 'template').variance).toBeCloseTo(sampleVariance(b), 12);
    expect(byName(bytemplate, 'item').variance).toBeCloseTo(0, 12);
    for (const v of [byitem, bytemplate])
      for (const name of ['item', 'template', 'residual']) {
        const c = byName(v, name);
        expect(c.lo).toBeLessThanOrEqual(c.variance + 1e-12);
        expect(c.hi).toBeGreaterThanOrEqual(c.variance - 1e-12);
      }
    const report = await waver(['report', '--out', 'report.md']);
    expect(report.code).toBe(0);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toMatch(
      /Where the variance comes from \(random-effects ANOVA over item x template; n = 6 items used, 0 dropped/,
    );
    expect(md).toMatch(/\| item \| 0\.3000 \[/);
  });

  it('says why it is unavailable when a budget leaves no item asked under every template', async () => {
    const r = await spread(['--budget', '0.25', '--store', 'budget.db']);
    expect(r.code).toBe(0);
    const v = (JSON.parse(r.stdout) as Json).models[0]?.variance;
    expect(v).toEqual({ unavailable: expect.stringMatching(/no item has every combination of template/) });
  });
});
