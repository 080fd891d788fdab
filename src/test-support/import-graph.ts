import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { repoRoot } from './shared.js';

/**
 * What importing `entry` (a file under src/) loads and what its types name: every module its
 * import and export declarations reach, value and type alike, followed through src/ (a package is
 * listed by its name and not entered). A dynamic `import()` is not followed: it loads its module
 * only when called, which is how a protocol's adapters stay out of the library (docs/library.md).
 * Files are given relative to the repository (`src/protocols/types.ts`).
 */
export function staticImportGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const key = relative(repoRoot, file);
    if (seen.has(key)) return;
    seen.add(key);
    for (const spec of declaredImports(file)) {
      if (!spec.startsWith('.')) {
        seen.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
        continue;
      }
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (existsSync(target)) visit(target);
    }
  };
  visit(resolve(repoRoot, entry));
  return seen;
}

/** A statement `import ... from '…'`, `export ... from '…'` (`type` too) or `import '…'`; never an `import()` call. */
const DECLARED = /^[ \t]*(?:(?:import|export)\b[^;()]*?\bfrom\s*|import\s*)['"]([^'"]+)['"]/gm;

/** The specifiers of a file's import and export declarations (`import type` too), not its `import()` calls. */
function declaredImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(DECLARED)].map((m) => m[1] as string);
}
