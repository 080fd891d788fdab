import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startLoopbackHub } from './hub/test-support/loopback-hub.js';
import { sharedHubMissing, sharedHubRepos } from './hub/test-support/shared-hub.js';
import { type Notice, paraphraseProtocol, validateConfig } from './index.js';
import { staticImportGraph } from './test-support/import-graph.js';
import { startScriptedChatServer } from './test-support/scripted-chat-server.js';

/**
 * The library is the protocols without the CLI (docs/library.md): importing it reaches no
 * commander and no command, and a run through it writes nothing to the terminal.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-library-pure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('the library entry', () => {
  it("reaches no commander, no command and no terminal code, by its modules' imports and its types'", () => {
    const reached = [...staticImportGraph('src/index.ts')];
    expect(reached).not.toContain('commander');
    expect(reached.filter((f) => /^src\/(cli|command-kit)\//.test(f))).toEqual([]);
    expect(reached.filter((f) => /\/(command|suite-command|execute|adapters)\.ts$/.test(f))).toEqual([]);
  });

  it("a protocol's contract names no command, report section, check or judge; its adapters do", () => {
    const reached = [...staticImportGraph('src/protocols/types.ts')];
    expect(reached).not.toContain('commander');
    // check/types.ts is reached only through plan/types.ts (a design's suite fill), not named by the contract.
    expect(
      reached.filter((f) => /^src\/(cli|command-kit|judge)\/|^src\/report\/report-data\.ts$/.test(f)),
    ).toEqual([]);
    expect([...staticImportGraph('src/protocols/adapters.ts')]).toEqual(
      expect.arrayContaining([
        'commander',
        'src/check/types.ts',
        'src/judge/types.ts',
        'src/report/report-data.ts',
      ]),
    );
  });
});

describe.skipIf(sharedHubMissing)('a run through the library', () => {
  it('writes nothing to stdout or stderr, and tells what a command would show through its callbacks', async () => {
    const hub = await startLoopbackHub(await sharedHubRepos(['allenai/ai2_arc']));
    const server = await startScriptedChatServer(() => ({
      body: {
        choices: [{ index: 0, message: { role: 'assistant', content: 'B' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 9, completion_tokens: 1 },
      },
    }));
    const written: string[] = [];
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation((chunk) => {
        written.push(String(chunk));
        return true;
      });
    try {
      const config = validateConfig({
        models: [{ provider: 'openai', model: 'always-b', baseURL: server.url, apiKeyEnv: 'K' }],
        store: join(dir, 'hub-run.db'),
        dataset: 'arc-challenge',
        paraphrase: { limit: 2, phrasings: ['canonical', 'terse'], repeats: 1 },
      });
      const env = { K: 'k', HF_ENDPOINT: hub.origin, WAVER_CACHE_DIR: join(dir, 'cache') };
      const notices: Notice[] = [];
      const plan = await paraphraseProtocol.build(config, { env, onNotice: (n) => notices.push(n) });
      const outcome = await paraphraseProtocol.run(config, plan, { env, onProgress: () => {} });
      expect(outcome).toMatchObject({ aborted: false, complete: true });
      expect(outcome.runs[0]?.models[0]?.coverage).toMatchObject({ total: 4, done: 4 });
      // The Hub's download is told to the caller's onNotice, not printed.
      expect(notices.filter((n) => n.kind === 'download').at(-1)).toMatchObject({
        name: expect.stringMatching(/^hf:allenai\/ai2_arc\//),
        received: expect.any(Number),
      });
    } finally {
      vi.restoreAllMocks();
      await server.close();
      await hub.close();
    }
    expect(written).toEqual([]);
  }, 60_000);
});
