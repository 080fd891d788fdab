import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { findSuite } from '../../check/suites.js';
import { type CellGrade, type CheckProtocol, gradeKey } from '../../check/types.js';
import { writeOutput } from '../../command-kit/output.js';
import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import type { RegistryContext } from '../../protocols/adapters.js';
import { exportTranscripts, type Grader } from '../../run/export.js';
import { type InspectLog, inspectLogs } from '../../run/export-inspect.js';
import { storeNotFound } from '../../store/not-found.js';
import { readStore, type Store } from '../../store/store.js';

/**
 * The grades of each suite's protocol, read once per suite when its first cell is exported: a
 * cell of a protocol without grades, or of a plain suite, has none.
 */
function graderOf(store: Store, protocols: readonly CheckProtocol[], config: WaverConfig): Grader {
  const bySuite = new Map<string, { protocol: string; grades: Map<string, CellGrade> } | undefined>();
  return (cell) => {
    if (!bySuite.has(cell.suiteHash)) {
      const protocol = protocols.find((p) => p.grades && p.suiteName === cell.suiteName);
      bySuite.set(
        cell.suiteHash,
        protocol?.grades && (protocol.usable?.(store, cell.suiteHash) ?? true)
          ? { protocol: protocol.protocol, grades: protocol.grades(store, cell.suiteHash, config) }
          : undefined,
      );
    }
    const found = bySuite.get(cell.suiteHash);
    const g = found?.grades.get(gradeKey(cell.modelIdentity, cell.testId, cell.repeat));
    return found && g ? { protocol: found.protocol, ...g } : undefined;
  };
}

export function exportCommand(ctx: RegistryContext): Command {
  return new Command('export')
    .description('write every stored cell (request, response or error, attempts) as JSONL transcripts')
    .option('--store <file>', 'SQLite store', '.waver/store.db')
    .option('--out <file>', 'output file (default: stdout); with --format inspect, the log directory')
    .option(
      '--format <format>',
      'jsonl (one transcript a line) or inspect (inspect_ai eval logs, docs/report.md#inspect)',
      'jsonl',
    )
    .option('--suite <hash>', 'only this suite (its sha256 or an 8+ character prefix)')
    .option('--model <label>', 'only this model label')
    .option(
      '-c, --config <file>',
      "config file for the protocols' scoring settings (default: ./waver.yaml when present)",
    )
    .option('--no-graded', "leave out each cell's parsed answer and verdict (no protocol results are loaded)")
    .action(async (opts: ExportFlags) => {
      if (!existsSync(opts.store)) throw storeNotFound(opts.store, '--store');
      if (!EXPORT_FORMATS.includes(opts.format))
        throw new InputError(`unknown format '${opts.format}' (expected ${EXPORT_FORMATS.join(' or ')})`, {
          field: '--format',
        });
      if (opts.format === 'inspect' && opts.out === undefined)
        throw new InputError('--format inspect writes one file per eval: name their directory with --out', {
          field: '--out',
        });
      await readStore(opts.store, (store) => exportStore(ctx, store, opts));
    });
}

const EXPORT_FORMATS = ['jsonl', 'inspect'];

interface ExportFlags {
  store: string;
  format: string;
  out?: string;
  suite?: string;
  model?: string;
  config?: string;
  graded: boolean;
}

/** The store's cells, as the flags filter them, one JSON line each: whole or not at all, as `waver report` writes (docs/report.md#export). */
async function exportStore(ctx: RegistryContext, store: Store, opts: ExportFlags): Promise<void> {
  // Named filters must name something: a typo would otherwise export nothing and pass.
  const suiteHash = opts.suite === undefined ? undefined : findSuite(store, opts.suite).hash;
  if (opts.model !== undefined) {
    const labels = store.suites.modelLabels(suiteHash);
    if (!labels.includes(opts.model))
      throw new InputError(
        `no model '${opts.model}' in ${suiteHash ? `suite ${suiteHash.slice(0, 12)}` : 'the store'} (its models: ${labels.join(', ') || 'none'})`,
        { field: '--model', file: opts.store },
      );
  }
  const protocols = await Promise.all(ctx.protocols.flatMap((p) => (p.check ? [p.check()] : [])));
  const config = ctx.config.resolve({ file: opts.config, flags: { store: opts.store } });
  const grade = opts.graded ? graderOf(store, protocols, config) : undefined;
  if (opts.format === 'inspect')
    return writeInspectLogs(opts.out as string, inspectLogs(store, { suiteHash, model: opts.model }, grade));
  await writeOutput(opts.out, async (write) => {
    for (const record of exportTranscripts(store, { suiteHash, model: opts.model }, grade))
      await write(`${JSON.stringify(record)}\n`);
  });
}

/**
 * One file per eval in `dir`, each written whole (writeOutput); a failure removes the ones already
 * written, so the directory holds all the logs or none of them.
 */
async function writeInspectLogs(dir: string, logs: readonly InspectLog[]): Promise<void> {
  const written: string[] = [];
  try {
    for (const { file, log } of logs) {
      await writeOutput(join(dir, file), (write) => write(JSON.stringify(log)));
      written.push(join(dir, file));
    }
  } catch (e) {
    for (const f of written) rmSync(f, { force: true });
    throw e;
  }
  process.stderr.write(`waver: wrote ${logs.length} inspect log(s) to ${dir}\n`);
}
