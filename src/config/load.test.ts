import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputErrorOf } from '../test-support/scratch.js';
import { loadConfigFile, resolveConfig, validateConfig } from './load.js';
import { configJsonSchema, configSchema, repeatsSetting } from './schema.js';

const dir = mkdtempSync(join(tmpdir(), 'waver-config-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('waver.yaml', () => {
  it('loads a valid file with defaults filled in', () => {
    const path = file(
      'ok.yaml',
      'models:\n  - gguf:./m.gguf\n  - provider: openai\n    model: gpt-4o-mini\nconcurrency: 8\n',
    );
    const config = resolveConfig({ file: path });
    expect(config.concurrency).toBe(8);
    expect(config.models).toHaveLength(2);
    expect(config.params.temperature).toBe(0);
    expect(config.store).toBe('.waver/store.db');
  });

  it('takes shard K/N the same way from the file, the flags and the library, a bad one naming its line', () => {
    const path = file('shard.yaml', 'models: [gguf:./m.gguf]\nshard: 2/3\n');
    expect(resolveConfig({ file: path }).shard).toEqual({ index: 2, count: 3 });
    expect(resolveConfig({ file: path, flags: { shard: '3/3' } }).shard).toEqual({ index: 3, count: 3 });
    expect(validateConfig({ shard: '1/1' }).shard).toEqual({ index: 1, count: 1 });
    const err = inputErrorOf(() =>
      resolveConfig({ file: file('shard-bad.yaml', 'models: []\nshard: 4/3\n') }),
    );
    expect([err.line, err.field, err.reason]).toEqual([
      2,
      'shard',
      "expected K/N with 1 <= K <= N (the K-th of N shards, e.g. 2/3) or auto, got '4/3'",
    ]);
  });

  it("bounds repeats by maxRepeats (1,000 by default), the file's line named; the file may raise it", () => {
    const err = inputErrorOf(() => loadConfigFile(file('repeats.yaml', 'models: []\nrepeats: 1001\n')));
    expect([err.line, err.field, err.reason]).toEqual([
      2,
      'repeats',
      '1001 is above the limit of 1000 (maxRepeats in waver.yaml raises it)',
    ]);
    const raised = file('raised.yaml', 'maxRepeats: 5000\n');
    expect(resolveConfig({ file: raised, flags: { repeats: 5000 } }).repeats).toBe(5000);
    expect(inputErrorOf(() => resolveConfig({ file: raised, flags: { repeats: 5001 } })).field).toBe(
      'repeats',
    );
    expect(inputErrorOf(() => validateConfig({ repeats: 1001 })).field).toBe('repeats');
  });

  it("bounds a section's repeats setting the same way, naming its field and line", () => {
    const section = z.object({ repeats: repeatsSetting(z.int().positive().default(2)) }).strict();
    const schema = configSchema([{ key: 'probe', schema: section }]);
    const err = inputErrorOf(() =>
      loadConfigFile(file('probe-repeats.yaml', 'models: []\nprobe:\n  repeats: 2000\n'), schema),
    );
    expect([err.line, err.field, err.reason]).toEqual([
      3,
      'probe.repeats',
      '2000 is above the limit of 1000 (maxRepeats in waver.yaml raises it)',
    ]);
    const raised = { maxRepeats: 2000, probe: { repeats: 2000 } } as never;
    expect(validateConfig(raised, schema)).toMatchObject({ probe: { repeats: 2000 } });
  });

  it('reads a file saved with a byte-order mark and CRLF line ends, lines still counted', () => {
    const config = resolveConfig({
      file: file('bom.yaml', '\ufeffmodels:\r\n  - gguf:./m.gguf\r\nconcurrency: 3\r\n'),
    });
    expect(config.concurrency).toBe(3);
    const err = inputErrorOf(() =>
      loadConfigFile(file('bom-bad.yaml', '\ufeffmodels: []\r\n\r\nconcurrency: lots\r\n')),
    );
    expect([err.line, err.field]).toEqual([3, 'concurrency']);
  });

  it('names file, line and field for a wrong type', () => {
    const path = file('type.yaml', 'models: []\n\nconcurrency: lots\n');
    const err = inputErrorOf(() => loadConfigFile(path));
    expect(err.file).toBe(path);
    expect(err.line).toBe(3);
    expect(err.field).toBe('concurrency');
    expect(err.format()).toMatch(/type\.yaml:3: concurrency: /);
  });

  it('names the line of an unknown field', () => {
    const path = file('unknown.yaml', 'models: []\nparams:\n  temperature: 0\n  tempreature: 1\n');
    const err = inputErrorOf(() => loadConfigFile(path));
    expect(err.line).toBe(4);
    expect(err.field).toBe('params.tempreature');
  });

  it('suggests the field an unknown one was meant to be, at any depth, in a file and in the library', () => {
    const schema = configSchema([
      { key: 'ladder', schema: z.object({ seeds: z.int().optional() }).strict() },
    ]);
    const top = inputErrorOf(() =>
      loadConfigFile(file('typo-top.yaml', 'models: []\nconcurency: 8\n'), schema),
    );
    expect(top.format()).toBe(
      `${dir}/typo-top.yaml:2: concurency: unknown field (did you mean concurrency?)`,
    );
    const deep = inputErrorOf(() => loadConfigFile(file('typo-deep.yaml', 'ladder:\n  sedes: 3\n'), schema));
    expect(deep.format()).toMatch(
      /typo-deep\.yaml:2: ladder\.sedes: unknown field \(did you mean seeds\?\)$/,
    );
    const model = inputErrorOf(() =>
      validateConfig({ models: [{ provider: 'openai', model: 'm', rmp: 3 }] } as never),
    );
    expect([model.field, model.reason]).toEqual(['models.0.rmp', 'unknown field (did you mean rpm?)']);
    const far = inputErrorOf(() => validateConfig({ params: { banana: 1 } } as never, schema));
    expect(far.reason).toBe("unknown field (see 'waver schema' for the fields)");
  });

  it('names the line of a nested model field', () => {
    const path = file('nested.yaml', 'models:\n  - provider: openai\n    model: x\n    rpm: -3\n');
    const err = inputErrorOf(() => loadConfigFile(path));
    expect(err.line).toBe(4);
    expect(err.field).toBe('models.0.rpm');
  });

  it('rejects an unknown provider prefix with its line', () => {
    const path = file('prefix.yaml', 'concurrency: 2\nmodels:\n  - gguf:./a.gguf\n  - olama:llama3\n');
    const err = inputErrorOf(() => loadConfigFile(path));
    expect(err.line).toBe(4);
    expect(err.field).toBe('models.1');
    expect(err.message).toMatch(/unknown model provider in 'olama:llama3'/);
  });

  it('reports YAML syntax errors with a line', () => {
    const path = file('syntax.yaml', 'models:\n  - a\n b: [\n');
    const err = inputErrorOf(() => loadConfigFile(path));
    expect(err.line).toBeGreaterThanOrEqual(2);
  });

  it('lets flags override file values and keeps file params', () => {
    const path = file('merge.yaml', 'concurrency: 3\nseed: 7\nparams:\n  maxTokens: 64\n');
    const config = resolveConfig({ file: path, flags: { concurrency: 16, params: { temperature: 0.5 } } });
    expect(config.concurrency).toBe(16);
    expect(config.seed).toBe(7);
    expect(config.params).toMatchObject({ maxTokens: 64, temperature: 0.5 });
  });

  it('validates the library API object with field names', () => {
    expect(() => validateConfig({ models: ['nope:x'] })).toThrow(/unknown model provider/);
    expect(inputErrorOf(() => validateConfig({ repeats: 0 })).field).toBe('repeats');
  });

  it("adds each section it is handed, checked by that section's schema; flags replace a section's fields one by one", () => {
    const section = z
      .object({ depth: z.int().positive().default(3), mode: z.enum(['a', 'b']).optional() })
      .strict();
    const schema = configSchema([{ key: 'probe', schema: section }]);
    const path = file('section.yaml', 'probe:\n  depth: 5\n  mode: a\n');
    const config = resolveConfig({ file: path, flags: { probe: { mode: 'b' } } as never, schema });
    expect((config as { probe?: unknown }).probe).toEqual({ depth: 5, mode: 'b' });
    const err = inputErrorOf(() => loadConfigFile(file('typo.yaml', 'probe:\n\n  dpth: 5\n'), schema));
    expect(err).toMatchObject({ line: 3, field: 'probe.dpth' });
    expect(inputErrorOf(() => validateConfig({ prob: {} } as never, schema)).field).toBe('prob');
    // Without the sections at hand, a section is kept as written for its owner to check.
    expect((validateConfig({ probe: { dpth: 5 } } as never) as { probe?: unknown }).probe).toEqual({
      dpth: 5,
    });
  });

  it('produces a JSON schema that lists every top-level field', () => {
    const schema = configJsonSchema(configSchema([])) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['models', 'judge', 'store', 'concurrency', 'params', 'cache']),
    );
  });
});

describe('a YAML alias bomb', () => {
  it('is an input error naming the file, not an internal one', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [prev, name] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'e'],
      ['e', 'f'],
      ['f', 'g'],
    ])
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    const path = file('bomb.yaml', `${levels.join('\n')}\nmodels: *g\n`);
    const error = inputErrorOf(() => loadConfigFile(path));
    expect(error.file).toBe(path);
    expect(error.message).toMatch(/^cannot read the YAML: .*alias/i);
  });
});
