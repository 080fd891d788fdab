import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/shared.js';

/**
 * docs/fidelity.md's rows are cited by id (`fidelity L14`, `docs/fidelity.md L25`) from the other
 * docs and from code comments: each id names one row, and every cited id exists.
 */

const fidelity = readFileSync(join(repoRoot, 'docs', 'fidelity.md'), 'utf8');
const rowIds = [...fidelity.matchAll(/^\| ([A-Z]\d+) \|/gm)].map((m) => m[1] as string);

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), ext) : ext.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The row ids a text cites after the word `fidelity` (ranges `L31-L36` as their two ends). */
function citedIds(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /fidelity(?:\.md)?(?:#[\w-]+)?,?\s*\(?((?:[A-Z]\d+(?:\s*[-–,]\s*|\s*\)?\s*))+)/g,
  ))
    out.push(...((m[1] as string).match(/[A-Z]\d+/g) ?? []));
  return out;
}

describe('docs/fidelity.md row ids', () => {
  it('are unique', () => {
    expect(rowIds.length).toBeGreaterThan(50);
    const twice = rowIds.filter((id, i) => rowIds.indexOf(id) !== i);
    expect(twice).toEqual([]);
  });

  it('every id cited in docs/ and src/ is a row', () => {
    const files = [
      ...filesUnder(join(repoRoot, 'docs'), /\.md$/),
      ...filesUnder(join(repoRoot, 'src'), /\.ts$/),
    ];
    const missing: string[] = [];
    let cited = 0;
    for (const file of files)
      for (const id of citedIds(readFileSync(file, 'utf8'))) {
        cited++;
        if (!rowIds.includes(id)) missing.push(`${relative(repoRoot, file)}: ${id}`);
      }
    expect(cited).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
