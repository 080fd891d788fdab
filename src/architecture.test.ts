import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of docs/architecture.md, held against the code's own imports (static and `import()`
 * alike) among production files (tests and src/test-support/ are not): no folder imports one that
 * imports it back, so every arrow between folders runs down the page; no production file imports a
 * fixture; and a protocol's folder never imports another protocol's.
 */
const SRC = resolve(import.meta.dirname);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** A file's folder as the layers name it: src/run/engine/pump.ts is `run`; src/errors.ts is `errors.ts`. */
const folderOf = (file: string) => relative(SRC, file).split('/')[0] as string;
const protocolOf = (file: string) => /^protocols\/([^/]+)\//.exec(relative(SRC, file))?.[1];

const files = sources(SRC).filter((f) => folderOf(f) !== 'test-support');
const edges = files.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => ({
    file,
    target: resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')),
  })),
);

describe('the layers (docs/architecture.md)', () => {
  it('reads the imports of every production folder', () => {
    expect(new Set(files.map(folderOf)).size).toBeGreaterThan(20);
    expect(edges.length).toBeGreaterThan(1000);
  });

  it('no production file imports a fixture', () => {
    const fixtures = edges.filter((e) => folderOf(e.target) === 'test-support');
    expect(fixtures.map((e) => relative(SRC, e.file))).toEqual([]);
  });

  it('no folder imports a folder that imports it back', () => {
    const down = new Map<string, Set<string>>();
    for (const { file, target } of edges) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to) down.set(from, new Set([...(down.get(from) ?? []), to]));
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
      for (const next of down.get(from) ?? []) {
        if (next === to) return true;
        if (seen.has(next)) continue;
        seen.add(next);
        if (reaches(next, to, seen)) return true;
      }
      return false;
    };
    const circles = [...down].flatMap(([from, tos]) =>
      [...tos].filter((to) => reaches(to, from)).map((to) => `${from} -> ${to}`),
    );
    expect(circles).toEqual([]);
  });

  it("a protocol's folder imports no other protocol's", () => {
    const across = edges.filter((e) => {
      const [a, b] = [protocolOf(e.file), protocolOf(e.target)];
      return a !== undefined && b !== undefined && a !== b;
    });
    expect(across.map((e) => `${relative(SRC, e.file)} -> ${relative(SRC, e.target)}`)).toEqual([]);
  });
});
