import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { loadConfigFile, resolveConfig, validateConfig } from './load.js';
import { configJsonSchema } from './schema.js';

const dir = mkdtempSync(join(tmpdir(), 'waver-config-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError');
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

  it('names file, line and field for a wrong type', () => {
    const path = file('type.yaml', 'models: []\n\nconcurrency: lots\n');
    const err = errorOf(() => loadConfigFile(path));
    expect(err.file).toBe(path);
    expect(err.line).toBe(3);
    expect(err.field).toBe('concurrency');
    expect(err.format()).toMatch(/type\.yaml:3: concurrency: /);
  });

  it('names the line of an unknown field', () => {
    const path = file('unknown.yaml', 'models: []\nparams:\n  temperature: 0\n  tempreature: 1\n');
    const err = errorOf(() => loadConfigFile(path));
    expect(err.line).toBe(4);
    expect(err.field).toBe('params.tempreature');
  });

  it('names the line of a nested model field', () => {
    const path = file('nested.yaml', 'models:\n  - provider: openai\n    model: x\n    rpm: -3\n');
    const err = errorOf(() => loadConfigFile(path));
    expect(err.line).toBe(4);
    expect(err.field).toBe('models.0.rpm');
  });

  it('rejects an unknown provider prefix with its line', () => {
    const path = file('prefix.yaml', 'concurrency: 2\nmodels:\n  - gguf:./a.gguf\n  - olama:llama3\n');
    const err = errorOf(() => loadConfigFile(path));
    expect(err.line).toBe(4);
    expect(err.field).toBe('models.1');
    expect(err.message).toMatch(/unknown model provider in 'olama:llama3'/);
  });

  it('reports YAML syntax errors with a line', () => {
    const path = file('syntax.yaml', 'models:\n  - a\n b: [\n');
    const err = errorOf(() => loadConfigFile(path));
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
    expect(errorOf(() => validateConfig({ repeats: 0 })).field).toBe('repeats');
  });

  it('produces a JSON schema that lists every top-level field', () => {
    const schema = configJsonSchema() as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['models', 'judge', 'store', 'concurrency', 'params', 'cache']),
    );
  });
});
