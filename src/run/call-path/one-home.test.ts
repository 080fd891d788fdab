import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..');

/** The production sources under `src/` (no tests, no fixtures), relative to it. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test-support' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [relative(SRC, path)] : [];
  });
}

const definitions = (pattern: RegExp) =>
  sources().filter((file) => pattern.test(readFileSync(join(SRC, file), 'utf8')));

describe('the call path is one home for its concerns (docs/decisions.md E45)', () => {
  it('holds the retry policy and the token buckets, each defined once', () => {
    expect(definitions(/export const DEFAULT_RETRY_POLICY\b/)).toEqual(['run/call-path/retry.ts']);
    expect(definitions(/export class TokenBucket\b/)).toEqual(['run/call-path/rate-limit.ts']);
    expect(definitions(/export function retryDelayMs\b/)).toEqual(['run/call-path/retry.ts']);
  });

  it("assembles a model's limits in one place, for the pool, the lanes and waver serve", () => {
    // A model's setting falling back to the command's (or serve's default) is the merge itself.
    const fallback = /\.(timeoutMs|maxRetries) \?\? (\w+\.(timeoutMs|maxRetries)|SERVE_TIMEOUT_MS|0\b)/;
    expect(definitions(fallback)).toEqual(['run/call-path/limits.ts']);
    for (const site of ['run/provider-pool.ts', 'run/engine/lanes.ts', 'server/served-model.ts'])
      expect(readFileSync(join(SRC, site), 'utf8')).toMatch(/mergeLimits\(/);
  });

  it("is all of run/ that waver serve's model imports", () => {
    const imports = [
      ...readFileSync(join(SRC, 'server', 'served-model.ts'), 'utf8').matchAll(/from '([^']+)'/g),
    ].map((m) => m[1] as string);
    const ofRun = imports.filter((path) => path.startsWith('../run/'));
    expect(ofRun.length).toBeGreaterThan(0);
    expect(ofRun.filter((path) => !path.startsWith('../run/call-path/'))).toEqual([]);
  });
});
