import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { findSuite } from '../../check/suites.js';
import { type CellGrade, type CheckProtocol, gradeKey } from '../../check/types.js';
import { writeOutput } from '../../command-kit/output.js';
import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import type { RegistryContext } from '../../protocols/adapters.js';
import { exportTranscripts, type Grader } from '../../run/export.js';
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
    .option('--out <file>', 'output file (default: stdout)')
    .option('--suite <hash>', 'only this suite (its sha256 or an 8+ character prefix)')
    .option('--model <label>', 'only this model label')
    .option(
      '-c, --config <file>',
      "config file for the protocols' scoring settings (default: ./waver.yaml when present)",
    )
    .option('--no-graded', "leave out each cell's parsed answer and verdict (no protocol results are loaded)")
    .action(async (opts: ExportFlags) => {
      if (!existsSync(opts.store)) throw new InputError('store not found', { file: opts.store });
      await readStore(opts.store, (store) => exportStore(ctx, store, opts));
    });
}

interface ExportFlags {
  store: string;
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
  await writeOutput(opts.out, async (write) => {
    for (const record of exportTranscripts(store, { suiteHash, model: opts.model }, grade))
      await write(`${JSON.stringify(record)}\n`);
  });
}
