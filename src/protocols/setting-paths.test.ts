import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WaverConfig, WaverConfigInput } from '../config/schema.js';
import { InputError } from '../errors.js';
import { requestFor } from '../run/plan.js';
import type { ProtocolCommand } from './adapters.js';
import { CONFIG } from './index.js';
import { ladderCommand } from './ladder/command.js';
import { ladderSettings } from './ladder/config.js';
import { ladderRunConfig } from './ladder/run.js';
import { paraphraseCommand } from './paraphrase/command.js';
import { paraphraseSettings } from './paraphrase/config.js';
import { runCommand } from './plain/command.js';
import { sagoCommand } from './sago/command.js';
import { sagoSettings, sutMaxTokens } from './sago/config.js';

/**
 * A setting is declared once (config/setting-flags.ts), so the flags of a protocol's command,
 * waver.yaml and the library's object give the same typed config: each case below is written the
 * three ways and must come out deep-equal, and so must the protocol's settings read from it.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-setting-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const empty = join(dir, 'empty.yaml');
writeFileSync(empty, '');

/** The config the command's action builds from `args`: its protocol's build receives it, and stops the command there. */
async function fromFlags(
  command: ProtocolCommand<never, never, never>,
  args: string[],
): Promise<WaverConfig> {
  let config: WaverConfig | undefined;
  const stop = new Error('stop after the config');
  const protocol = {
    build: async (c: WaverConfig) => {
      config = c;
      throw stop;
    },
  };
  const cmd = command(protocol as never, { config: CONFIG }).exitOverride();
  // A command reads its models before the build (issue 37.7): a stand-in one when the case has none,
  // taken out again so the config compares with waver.yaml's and the library's.
  const given = args.includes('--models');
  const models = given ? [] : ['--models', 'openai:stand-in'];
  await expect(cmd.parseAsync(['--config', empty, ...models, ...args], { from: 'user' })).rejects.toBe(stop);
  return given ? (config as WaverConfig) : { ...(config as WaverConfig), models: [] };
}

function fromYaml(text: string): WaverConfig {
  const file = join(dir, `waver-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return CONFIG.resolve({ file });
}

async function samePaths(
  command: ProtocolCommand<never, never, never>,
  args: string[],
  yaml: string,
  library: WaverConfigInput,
): Promise<WaverConfig> {
  const flags = await fromFlags(command, args);
  const file = fromYaml(yaml);
  const object = CONFIG.validate(library);
  expect(flags).toEqual(object);
  expect(file).toEqual(object);
  return object;
}

/** A command as the test drives it: handed a stand-in protocol. */
const as = (command: unknown) => command as ProtocolCommand<never, never, never>;

describe('flags, waver.yaml and the library give one typed config', () => {
  it('ladder', async () => {
    const library: WaverConfigInput = {
      generator: 'openai:gpt-4o-mini',
      ladder: {
        seeds: 3,
        families: ['SV', 'KB'],
        levels: [1, 5],
        answerFormat: 'hashes',
        kbRecognizeThreshold: 0.8,
        maxTokens: 900,
        fields: { question: 'q', answer: 'a' },
        generator: 'model',
      },
    };
    const config = await samePaths(
      as(ladderCommand),
      [
        ...['--seeds', '3', '--families', 'SV, KB', '--levels', '1,5', '--answer-format', 'hashes'],
        ...['--judge-threshold', '0.8', '--max-tokens', '900', '--fields', 'question=q,answer=a'],
        ...['--generator', 'openai:gpt-4o-mini'],
      ],
      [
        'generator: openai:gpt-4o-mini',
        'ladder:',
        '  seeds: 3',
        '  families: [SV, KB]',
        '  levels: [1, 5]',
        '  answerFormat: hashes',
        '  kbRecognizeThreshold: 0.8',
        '  maxTokens: 900',
        '  fields: {question: q, answer: a}',
        '  generator: model',
      ].join('\n'),
      library,
    );
    expect(ladderSettings(config)).toMatchObject({ seeds: 3, kbRecognizeThreshold: 0.8, generator: 'model' });
  });

  it('sago', async () => {
    const config = await samePaths(
      as(sagoCommand),
      [
        ...['--n', '3', '--families', 'noise,register', '--eps', '0.2,0.1', '--reference'],
        ...[
          '--ablation-draws',
          '10',
          '--fields',
          'prompt=q',
          '--id-field',
          'uid',
          '--strengths',
          'spacing=1,5',
        ],
        ...['--closed-subset', '--bleu-mode', 'sentence'],
      ],
      [
        'sago:',
        '  n: 3',
        '  families: [noise, register]',
        '  eps: [0.2, 0.1]',
        '  reference: true',
        '  ablation: {draws: 10}',
        '  fields: {prompt: q, id: uid}',
        '  strengths: {spacing: [1, 5]}',
        '  closedModelSubset: true',
        '  bleuMode: sentence',
      ].join('\n'),
      {
        sago: {
          n: 3,
          families: ['noise', 'register'],
          eps: [0.2, 0.1],
          reference: true,
          ablation: { draws: 10 },
          fields: { prompt: 'q', id: 'uid' },
          strengths: { spacing: [1, 5] },
          closedModelSubset: true,
          bleuMode: 'sentence',
        },
      },
    );
    // Without the default among the tolerances, the first is primary; an unset switch takes the reference side.
    expect(sagoSettings(config)).toMatchObject({
      primaryEps: 0.2,
      bleuMode: 'sentence',
      deltaBaseline: 'strength-zero',
      ablation: { draws: 10, sizes: [4, 8, 16, 32, 64, 128] },
    });
  });

  it('paraphrase', async () => {
    const config = await samePaths(
      as(paraphraseCommand),
      ['--limit', '4', '--phrasings', 'terse,canonical', '--repeats', '3', '--fields', 'stem=q,key=a'],
      'paraphrase: {limit: 4, phrasings: [terse, canonical], repeats: 3, fields: {stem: q, key: a}}',
      {
        paraphrase: {
          limit: 4,
          phrasings: ['terse', 'canonical'],
          repeats: 3,
          fields: { stem: 'q', key: 'a' },
        },
      },
    );
    expect(paraphraseSettings(config)).toEqual({
      repeats: 3,
      resamples: 2000,
      limit: 4,
      phrasings: ['canonical', 'terse'],
      phrasingsGiven: true,
      fields: { stem: 'q', key: 'a' },
    });
  });

  it('a plain run: the base flags', async () => {
    await samePaths(
      as(runCommand),
      [
        ...['--suite', 's.jsonl', '--models', 'gguf:./a.gguf, gguf:./b.gguf', '--concurrency', '2'],
        ...[
          '--timeout-ms',
          '5000',
          '--no-cache',
          '--shard',
          '1/2',
          '--temperature',
          '0.5',
          '--format',
          'json',
        ],
        ...[
          '--batch',
          '--no-batch-wait',
          '--dry-run',
          '--max-retries',
          '0',
          '--store',
          'x.db',
          '--out',
          'o.md',
        ],
      ],
      [
        'suite: s.jsonl',
        'models: [gguf:./a.gguf, gguf:./b.gguf]',
        'concurrency: 2',
        'timeoutMs: 5000',
        'cache: false',
        'shard: 1/2',
        'params: {temperature: 0.5}',
        'format: json',
        'batch: true',
        'batchWait: false',
        'dryRun: true',
        'maxRetries: 0',
        'store: x.db',
        'out: o.md',
      ].join('\n'),
      {
        suite: 's.jsonl',
        models: ['gguf:./a.gguf', 'gguf:./b.gguf'],
        concurrency: 2,
        timeoutMs: 5000,
        cache: false,
        shard: '1/2',
        params: { temperature: 0.5 },
        format: 'json',
        batch: true,
        batchWait: false,
        dryRun: true,
        maxRetries: 0,
        store: 'x.db',
        out: 'o.md',
      },
    );
  });

  it("the budget, the same in every protocol's command", async () => {
    await samePaths(
      as(runCommand),
      ['--max-calls', '100', '--max-cost', '2.5'],
      'maxCalls: 100\nmaxCost: 2.5',
      {
        maxCalls: 100,
        maxCost: 2.5,
      },
    );
    for (const command of [ladderCommand, sagoCommand, paraphraseCommand]) {
      const config = await fromFlags(as(command), ['--max-calls', '100', '--max-cost', '2.5']);
      expect([config.maxCalls, config.maxCost]).toEqual([100, 2.5]);
    }
  });

  it('a bad flag value is an input error naming the flag', async () => {
    const bad = async (args: string[]) => {
      const cmd = sagoCommand({} as never, { config: CONFIG }).exitOverride();
      const e = await cmd.parseAsync(['--config', empty, ...args], { from: 'user' }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InputError);
      return (e as InputError).message;
    };
    expect(await bad(['--limit', '0'])).toBe("--limit: expected a positive integer, got '0'");
    expect(await bad(['--eps', '0.1,2'])).toBe("--eps: expected a number > 0 and < 1, got '2'");
    expect(await bad(['--families', 'noise,loud'])).toBe(
      "--families: unknown family 'loud' (expected some of register, noise, structural)",
    );
    expect(await bad(['--concurrency', 'many'])).toBe("--concurrency: expected an integer, got 'many'");
    expect(await bad(['--strengths', 'spacing=1,x'])).toBe("--strengths spacing: expected a number, got 'x'");
  });
});

/**
 * One order for the cap a system under test is sent (docs/protocols.md#request): `--max-tokens`,
 * then the protocol's section of waver.yaml, then `params.maxTokens`, then the protocol's own.
 */
describe('the output cap of a system under test: flag, section, params, protocol default', () => {
  /** The command's config from `yaml` (a waver.yaml) and `args`. */
  const configOf = async (command: unknown, yaml: string, args: string[] = []) => {
    const file = join(dir, `cap-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, yaml);
    return fromFlags(as(command), ['--config', file, ...args]);
  };
  const ladderCap = async (yaml: string, args?: string[]) =>
    ladderRunConfig(await configOf(ladderCommand, yaml, args)).params.maxTokens;
  const sagoCap = async (yaml: string, args?: string[]) => {
    const config = await configOf(sagoCommand, yaml, args);
    return sutMaxTokens(config, sagoSettings(config));
  };
  const plainCap = async (yaml: string, args?: string[]) =>
    requestFor({ id: 't', prompt: 'p' }, (await configOf(runCommand, yaml, args)).params).maxTokens;

  it('ladder: 768 by default', async () => {
    expect(await ladderCap('')).toBe(768);
    expect(await ladderCap('params: {maxTokens: 64}')).toBe(64);
    expect(await ladderCap('params: {maxTokens: 64}\nladder: {maxTokens: 128}')).toBe(128);
    expect(await ladderCap('params: {maxTokens: 64}\nladder: {maxTokens: 128}', ['--max-tokens', '32'])).toBe(
      32,
    );
  });

  it("sago: 256 by default, the authors' 100 under reference", async () => {
    expect(await sagoCap('')).toBe(256);
    expect(await sagoCap('sago: {reference: true}')).toBe(100);
    expect(await sagoCap('params: {maxTokens: 64}\nsago: {reference: true}')).toBe(64);
    expect(await sagoCap('params: {maxTokens: 64}\nsago: {maxTokens: 128}')).toBe(128);
    // The flag was lost under --reference before: it set params.maxTokens, below the reference's 100.
    expect(await sagoCap('sago: {maxTokens: 128}', ['--reference', '--max-tokens', '32'])).toBe(32);
    expect(await sagoCap('', ['--reference', '--max-tokens', '32'])).toBe(32);
  });

  it('a plain suite: 256 by default', async () => {
    expect(await plainCap('')).toBe(256);
    expect(await plainCap('params: {maxTokens: 64}')).toBe(64);
    expect(await plainCap('params: {maxTokens: 64}', ['--max-tokens', '32'])).toBe(32);
  });
});
