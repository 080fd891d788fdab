import { Command, Option } from 'commander';
import { emit } from '../../../cli/output.js';
import { openStore } from '../../../store/store.js';
import type { ProtocolCommand } from '../../define.js';
import type { RunOutcome } from '../../types.js';
import type { LadderPlan } from '../protocol.js';
import type { LadderSectionData } from '../report-section.js';
import { type LadderResults, loadLadderResults } from '../results.js';
import { FAMILIES, LEVELS } from '../types.js';
import { planLadderRunsImport, writeLadderRunsImport } from './ladder-runs.js';

interface Flags {
  config?: string;
  store?: string;
  format?: 'md' | 'json';
  out?: string;
}

const fmt = (x: number | undefined) => (x === undefined ? '' : x.toFixed(3));

/**
 * `waver import ladder-runs DIR...` (docs/ladder.md#import): the ladder reference's run folders
 * into the store, then per run the per-level accuracies and Collapse Points waver's ladder tables
 * compute from it next to the run's own metrics files, and any disagreement. Bad input: exit 2,
 * nothing written.
 */
export const ladderRunsImportCommand: ProtocolCommand<
  LadderPlan,
  LadderSectionData,
  RunOutcome<LadderResults>
> = (_ladder, ctx) =>
  new Command('ladder-runs')
    .description(
      "read the ladder reference's run folders (responses.csv, eval.csv, metrics_acc.csv) as ladder suites",
    )
    .argument('<dirs...>', 'run folders (experiment/output/runs/<name>__<dataset>), or a folder holding them')
    .option('-c, --config <file>', 'config file (default: ./waver.yaml when present)')
    .option('--store <file>', 'SQLite store (default .waver/store.db)')
    .addOption(new Option('--format <format>', 'summary format').choices(['md', 'json']))
    .option('--out <file>', 'also write the summary to this file')
    .action(async (dirs: string[], o: Flags) => {
      const config = ctx.config.resolve({
        ...(o.config !== undefined && { file: o.config }),
        flags: {
          ...(o.store !== undefined && { store: o.store }),
          ...(o.format !== undefined && { format: o.format }),
          ...(o.out !== undefined && { out: o.out }),
        },
      });
      const plan = planLadderRunsImport(dirs);
      const store = openStore(config.store);
      try {
        const suites = writeLadderRunsImport(store, plan);
        const runs = suites.map((s, i) => {
          const p = plan.runs[i];
          const m = loadLadderResults(store, s.suiteHash, { seed: config.seed }).models[0];
          const families = FAMILIES.filter((f) => p?.reference.accuracy.has(f)).map((f) => {
            const fm = m?.metrics.families.find((x) => x.family === f);
            return {
              family: f,
              accuracy: Object.fromEntries([
                ['L0', m?.metrics.baseline.accuracy.value],
                ...LEVELS.map((k) => [`L${k}`, fm?.levels[k].accuracy.value]),
              ]),
              recorded: Object.fromEntries(p?.run.accuracy.get(f) ?? []),
              collapse: fm?.collapse.status === 'collapsed' ? `L${fm.collapse.level}` : fm?.collapse.status,
              recordedCollapse: p?.run.collapse ? (p.run.collapse.get(f) ?? 'never') : undefined,
            };
          });
          return { ...s, families, mismatches: p?.mismatches ?? [] };
        });
        const summary = { store: config.store, runs };
        if (config.format === 'json') emit(`${JSON.stringify(summary, null, 2)}\n`, config.out);
        else {
          const out = ['# waver import ladder-runs', ''];
          for (const r of runs) {
            out.push(
              `## ${r.run}: ${r.model}, suite ladder/tests ${r.suiteHash.slice(0, 12)}, ${r.tests} tests, ${r.cells} cells`,
              '',
            );
            out.push('waver (recorded metrics_acc.csv in brackets):', '');
            out.push(`| family | ${['L0', ...LEVELS.map((k) => `L${k}`)].join(' | ')} | CP |`);
            out.push(`|---|${'---:|'.repeat(6)}---|`);
            for (const f of r.families) {
              const cells = ['L0', ...LEVELS.map((k) => `L${k}`)].map(
                (l) =>
                  `${fmt(f.accuracy[l])}${f.recorded[l] !== undefined ? ` [${fmt(f.recorded[l])}]` : ''}`,
              );
              out.push(
                `| ${f.family} | ${cells.join(' | ')} | ${f.collapse}${f.recordedCollapse ? ` [${f.recordedCollapse}]` : ''} |`,
              );
            }
            out.push('');
            out.push(
              r.mismatches.length === 0
                ? "The run's metrics files agree with the reference's aggregation of its rows."
                : `MISMATCH with the run's metrics files: ${r.mismatches.map((x) => `${x.family} ${x.column}: recorded ${x.recorded || 'empty'}, rows give ${x.computed || 'empty'}`).join('; ')}`,
              '',
            );
          }
          emit(`${out.join('\n')}\n`, config.out);
        }
      } finally {
        store.close();
      }
    });
