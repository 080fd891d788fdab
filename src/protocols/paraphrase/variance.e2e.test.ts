import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { scratchDir } from '../../test-support/scratch.js';
import {
  completion,
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../test-support/scripted-chat-server.js';
import { CONFIG } from '../index.js';
import { paraphraseSettings } from './config.js';
import { resolveMcItems } from './data/datasets.js';
import { verifyKeys } from './key-check.js';
import { rewordItems } from './reword.js';
import { paraphraseSuite } from './run.js';
import type { ParaphraseTestMeta } from './suite.js';

beforeAll(assertBuilt);

const ITEMS = 6;

/** Each prompt of the built-in items' suite (first ITEMS items): its item's place, its phrasing, key and a wrong letter. */
async function promptsOfSuite(): Promise<
  Map<string, { item: number; phrasing: string; key: string; wrong: string }>
> {
  const config = CONFIG.validate({});
  const settings = paraphraseSettings({});
  const dataset = await resolveMcItems();
  const items = dataset.items.slice(0, ITEMS);
  const rewords = await rewordItems(config, items);
  const suite = paraphraseSuite(
    config,
    settings,
    { dataset, items, keyCheck: verifyKeys(items), phrasings: settings.phrasings },
    rewords,
  );
  const order = items.map((i) => i.id);
  return new Map(
    suite.tests.map((t) => {
      const meta = t.meta as unknown as ParaphraseTestMeta;
      const wrong = meta.options.find((o) => o.letter !== meta.key)?.letter ?? '';
      return [t.prompt, { item: order.indexOf(meta.item), phrasing: meta.phrasing, key: meta.key, wrong }];
    }),
  );
}

/**
 * Known components on a paraphrase store (items x 5 phrasings x 2 repeats). Model `byphrasing` is
 * right under canonical and terse only, on every item: all the variance is the phrasing's, the
 * sample variance of (1, 0, 1, 0, 0) = 0.3. Model `byitem` is right on the even items under every
 * phrasing: all of it is the item's, 6/5 x 1/4 = 0.3. Both answer a prompt the same each repeat.
 */
describe('paraphrase report: where the variance comes from, against a loopback API with known components', () => {
  let server: ScriptedChatServer;
  let dir: string;
  beforeAll(async () => {
    const prompts = await promptsOfSuite();
    server = await startScriptedChatServer((prompt, model) => {
      const p = prompts.get(prompt);
      if (!p) return completion({ content: 'no idea' }, 'stop');
      const right = model === 'byitem' ? p.item % 2 === 0 : ['canonical', 'terse'].includes(p.phrasing);
      return completion({ content: right ? p.key : p.wrong }, 'stop');
    });
    dir = scratchDir('paraphrase-variance');
  });
  afterAll(() => server.close());

  it('gives phrasing and item components equal to the design, with intervals and n', async () => {
    const env = cleanEnv({ OPENAI_API_KEY: 'sk-test' });
    const models = `openai:byphrasing@${server.url},openai:byitem@${server.url}`;
    const run = await runCli(['paraphrase', '--models', models, '--limit', String(ITEMS), '--repeats', '2'], {
      cwd: dir,
      env,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(server.calls('no idea')).toBe(0);
    const report = await runCli(['report', '--out', 'report.md'], { cwd: dir, env });
    expect(report.code).toBe(0);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    const table = (label: string) => {
      const at = md.indexOf(
        `${label}@${server.url} (random-effects ANOVA over item x phrasing x 2 repeats; n = ${ITEMS} items used, 0 dropped`,
      );
      expect(at).toBeGreaterThan(0);
      return md.slice(at, md.indexOf('\n\n', md.indexOf('| component', at)));
    };
    const byphrasing = table('openai:byphrasing');
    expect(byphrasing).toMatch(/\| phrasing \| 0\.3000 \[[\d.]+, [\d.]+\] \| 100\.0% \|/);
    expect(byphrasing).toMatch(/\| item \| 0\.0000 /);
    expect(byphrasing).toMatch(/\| repeat \| 0\.0000 /);
    const byitem = table('openai:byitem');
    expect(byitem).toMatch(/\| item \| 0\.3000 \[[\d.]+, [\d.]+\] \| 100\.0% \|/);
    expect(byitem).toMatch(/\| phrasing \| 0\.0000 /);
  });
});
