import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * The bench scripts import waver's built modules by path (`../dist/...`), which the type checker
 * never sees: a name moved in src must not leave a bench script that fails at its first line.
 * `npm test` builds dist first.
 */
const here = dirname(fileURLToPath(import.meta.url));

it('every name a bench script imports from dist is exported there', async () => {
  const missing: string[] = [];
  let checked = 0;
  for (const file of readdirSync(here).filter((f) => f.endsWith('.mjs'))) {
    const source = readFileSync(join(here, file), 'utf8');
    for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(\.\.\/dist\/[^']+)'/g)) {
      const module = (await import(resolve(here, m[2] as string))) as Record<string, unknown>;
      for (const name of (m[1] as string).split(',').map((s) => s.trim().split(/\s+as\s+/)[0] as string)) {
        if (name === '') continue;
        checked++;
        if (!(name in module)) missing.push(`${file}: ${name} from ${m[2]}`);
      }
    }
  }
  expect(checked).toBeGreaterThan(10);
  expect(missing).toEqual([]);
});
