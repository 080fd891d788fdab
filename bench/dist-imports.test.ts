import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The bench scripts import waver's built modules by path; a module moved in src/ breaks them only
// when `npm run bench` runs. This reads each script's imports of dist/ and checks that the source
// module exists and exports every name the script takes from it.
const BENCH = join(import.meta.dirname);
const SRC = join(BENCH, '..', 'src');

interface DistImport {
  script: string;
  module: string;
  names: string[];
}

function namesOf(clause: string): string[] {
  return clause
    .split(',')
    .map((part) => part.trim().split(/\s*(?::|\bas\b)\s*/)[0] ?? '')
    .filter((name) => name.length > 0);
}

function distImports(script: string, text: string): DistImport[] {
  const found: DistImport[] = [];
  const statics = /import\s*\{([^}]*)\}\s*from\s*'\.\.\/dist\/([^']+)\.js'/g;
  for (const m of text.matchAll(statics))
    found.push({ script, module: m[2] as string, names: namesOf(m[1] as string) });
  const dynamics = /const\s*\{([^}]*)\}\s*=\s*await import\(\s*join\(DIST,\s*([^)]*)\)\s*\)/g;
  for (const m of text.matchAll(dynamics)) {
    const parts = [...(m[2] as string).matchAll(/'([^']+)'/g)].map((p) => p[1] as string);
    found.push({ script, module: parts.join('/').replace(/\.js$/, ''), names: namesOf(m[1] as string) });
  }
  return found;
}

const imports = readdirSync(BENCH)
  .filter((f) => f.endsWith('.mjs'))
  .flatMap((f) => distImports(f, readFileSync(join(BENCH, f), 'utf8')));

describe('bench scripts import modules that exist', () => {
  it('finds the imports it checks', () => {
    expect(imports.length).toBeGreaterThan(40);
  });
  it.each(imports.map((i) => [`${i.script} → ${i.module}`, i] as const))('%s', async (_, i) => {
    const mod = (await import(join(SRC, `${i.module}.ts`))) as Record<string, unknown>;
    for (const name of i.names) expect(mod[name], `${i.script} takes ${name} from ${i.module}`).toBeDefined();
  });
});
