import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../run/cache-key.js';
import { suiteOf } from '../run/suite.js';
import { openStore } from '../store/store.js';
import { scratchDir } from '../test-support/scratch.js';
import { damageTable } from '../test-support/store/damaged-store.js';
import { StoreReader } from './progress.js';

describe('StoreReader of a damaged store', () => {
  it('says it cannot be read, naming the file, until the file is restored from a copy', () => {
    const dir = scratchDir('waver-view-reader-');
    const path = join(dir, 'store.db');
    const store = openStore(path);
    const suite = suiteOf('two', [
      { id: 'a', prompt: 'one' },
      { id: 'b', prompt: 'two' },
    ]);
    store.suites.save(suite);
    const runId = store.runs.begin({
      suiteHash: suite.hash,
      config: { models: ['m'] },
      waverVersion: 'test',
    });
    for (const t of suite.tests) {
      const request = { messages: [{ role: 'user' as const, content: t.prompt }] };
      store.cells.saveDone({
        suiteHash: suite.hash,
        testId: t.id,
        model: 'm',
        modelIdentity: 'm',
        repeat: 0,
        runId,
        request,
        key: cacheKey('m', request, 0),
        result: { text: 'ok', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop' },
        attempts: [],
      });
    }
    store.runs.finish(runId, 'complete');
    store.close();
    const copy = join(dir, 'copy.db');
    copyFileSync(path, copy);

    damageTable(path, 'cells');
    const reader = new StoreReader(path);
    const unreadable = reader.progress();
    expect(unreadable.state).toBe('unreadable');
    expect(unreadable.error).toMatch(
      new RegExp(`^${path}: the store is damaged \\(database disk image is malformed: .+\\)`),
    );
    expect(reader.problem()?.file).toBe(path);
    expect(() => reader.runs()).toThrow(/the store is damaged/);
    // Remembered, not checked again, while the file stays as it is.
    expect(reader.progress().state).toBe('unreadable');

    copyFileSync(copy, path);
    expect(readFileSync(path).equals(readFileSync(copy))).toBe(true);
    expect(reader.problem()).toBeUndefined();
    expect(reader.progress()).toMatchObject({ state: 'ok', total: 2, done: 2 });
    reader.close();
  });
});
