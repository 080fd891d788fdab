import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { reportCommand } from '../cli/commands/report.js';
import { configJsonSchema, PROTOCOLS, readResults, registerProtocol, validateConfig } from '../index.js';
import { type ScriptedChatServer, startScriptedChatServer } from '../test-support/scripted-chat-server.js';
import { withAdapters } from './adapters.js';
import { CONFIG } from './index.js';
import { echoProtocol } from './test-support/echo/index.js';

/**
 * A new protocol is its folder and one registry line (docs/architecture.md#adding-a-protocol): here
 * a protocol in a test folder, registered with `registerProtocol` instead of the line, joins the
 * config and its JSON schema, runs through the library, and through its CLI command and the report
 * as the CLI's entry points hand them every protocol. No file of waver's changes for it.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-registered-protocol-'));
let server: ScriptedChatServer;
let unregister: () => void;
beforeAll(async () => {
  server = await startScriptedChatServer(() => ({
    body: {
      choices: [{ index: 0, message: { role: 'assistant', content: 'B' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1 },
    },
  }));
  unregister = registerProtocol(echoProtocol);
});
afterAll(async () => {
  unregister();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
});

const model = () => ({
  provider: 'openai' as const,
  model: 'echo-b',
  baseURL: server.url,
  apiKeyEnv: 'ECHO_KEY',
});

describe('a protocol registered from a test folder', () => {
  it('joins the registry, waver.yaml and its JSON schema; a second of the same name is refused', () => {
    expect(PROTOCOLS.at(-1)).toBe(echoProtocol);
    expect(validateConfig({ echo: { times: 3 } } as never)).toMatchObject({ echo: { times: 3 } });
    expect(() => validateConfig({ echo: { time: 3 } } as never)).toThrow(/echo\.time: unknown field/);
    expect(JSON.stringify(configJsonSchema())).toContain('"echo"');
    expect(() => registerProtocol(echoProtocol)).toThrow(/a protocol named 'echo' is registered already/);
  });

  it('runs end to end through the library, and its results read back by readResults', async () => {
    const store = join(dir, 'library.db');
    const config = validateConfig({ models: [model()], store, echo: { times: 3 } } as never);
    const env = { ECHO_KEY: 'k' };
    const plan = await echoProtocol.build(config, { env });
    expect(plan.tests).toHaveLength(3);
    expect(await echoProtocol.estimate(config, plan, { env })).toMatchObject([{ cells: 3, calls: 3 }]);
    const outcome = await echoProtocol.run(config, plan, { env });
    const label = `openai:echo-b@${server.url}`;
    expect(outcome).toMatchObject({ aborted: false, complete: true, results: { done: { [label]: 3 } } });
    const [record] = await readResults(store, { protocol: 'echo' });
    expect(record).toMatchObject({ protocol: 'echo', suite: { name: 'echo/questions', tests: 3 } });
    expect(record?.results).toEqual({ done: { [label]: 3 } });
  });

  it("runs through its CLI command and shows in the report, as the CLI's entry points hand it", async () => {
    const protocols = await withAdapters(PROTOCOLS);
    const echo = protocols.find((p) => p.name === 'echo');
    if (!echo) throw new Error('echo has no adapters');
    const ctx = { protocols, config: CONFIG };
    const store = join(dir, 'cli.db');
    vi.stubEnv('OPENAI_API_KEY', 'k');
    const stdout: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((c) => {
      stdout.push(String(c));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const command = await echo.commands.echo?.(ctx);
    await command
      ?.exitOverride()
      .parseAsync(['--models', `openai:echo-b@${server.url}`, '--store', store, '--times', '2'], {
        from: 'user',
      });
    expect(process.exitCode ?? 0).toBe(0);
    expect(JSON.parse(stdout.join(''))).toEqual({ done: { [`openai:echo-b@${server.url}`]: 2 } });

    const out = join(dir, 'report.md');
    await reportCommand(ctx).exitOverride().parseAsync(['--store', store, '--out', out], { from: 'user' });
    expect(readFileSync(out, 'utf8')).toContain('Echo: one question asked N times');
  });
});
