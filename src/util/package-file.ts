import { existsSync } from 'node:fs';

/**
 * A file of waver's package, by its path from the package root: the first folder above this
 * module with a package.json. The same from src/ (tests), dist/ (the library) and the CLI's
 * bundle in dist/bin/, whose modules sit at other depths (docs/decisions.md#e41-a-warm-run-loads-what-it-runs).
 */
export function packageFile(path: string): URL {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    if (existsSync(new URL('package.json', dir))) return new URL(path, dir);
    if (dir.pathname === '/') throw new Error(`waver: no package.json above ${import.meta.url}`);
  }
}
