#!/usr/bin/env node
// The default ladder suite (docs/ladder-suite.md#default-suite): reads the seven family files of
// src/protocols/ladder/default-suite/, measures every accepted line afresh (gates, the paper's
// severity, the level its content reads as, the gold check) and prints the fill table: per family x
// level the tests accepted, the cells left out, the share measured at their written level, and the
// lines failing a gate. `--write` writes each line's `measured` back into its file (the loader's test
// checks the recorded measure equals a fresh one).
//
//   npx tsc -p tsconfig.build.json && node bench/default-suite.mjs [--write]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/protocols/ladder/default-suite/', import.meta.url);
const { readDefaultSuiteFile, defaultSuiteDir, DEFAULT_SUITE_FILES } = await import(
  new URL('index.js', dist).href
);
const { fillTable, formatFillTable, measureCell, cellLine } = await import(new URL('fill.js', dist).href);
const { existsSync } = await import('node:fs');

const dir = defaultSuiteDir();
const write = process.argv.includes('--write');
const cells = [];
for (const [family, name] of Object.entries(DEFAULT_SUITE_FILES)) {
  const file = join(dir, name);
  if (!existsSync(file)) {
    console.log(`${name}: not in this copy (the ${family} family is left out)`);
    continue;
  }
  const own = readDefaultSuiteFile(file, family);
  cells.push(...own);
  if (write) {
    const text = own.map((c) => cellLine(c, 'text' in c ? measureCell(c) : undefined)).join('\n');
    writeFileSync(file, `${text}\n`);
    console.log(`${name}: wrote measured into ${own.filter((c) => 'text' in c).length} lines`);
  }
}
const rows = fillTable(cells);
process.stdout.write(`\n${formatFillTable(rows)}`);
const failing = cells
  .filter((c) => 'text' in c)
  .map((c) => ({ c, m: measureCell(c) }))
  .filter(({ c, m }) => m.gates.some((g) => g.verdict === 'fail') || m.level !== c.level);
for (const { c, m } of failing.slice(0, 40))
  console.log(
    `  ${c.family} L${c.level} ${c.seed}: ${m.gates
      .filter((g) => g.verdict === 'fail')
      .map((g) => `${g.gate}: ${g.reason}`)
      .join('; ')}`,
  );
if (failing.length > 40) console.log(`  ... and ${failing.length - 40} more`);
console.log(`RESULT ${JSON.stringify({ cells: cells.length, failing: failing.length })}`);
