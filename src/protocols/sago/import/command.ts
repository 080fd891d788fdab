import { Command } from 'commander';
import { commandFlags } from '../../../command-kit/options.js';
import { emit } from '../../../command-kit/output.js';
import { openStore } from '../../../store/store.js';
import type { ProtocolCommand } from '../../adapters.js';
import type { RunOutcome } from '../../types.js';
import { SagoConfig, sagoSettings } from '../config.js';
import type { SagoPromptSets } from '../prompt-sets.js';
import { loadSagoResults, type SagoResults } from '../results.js';
import { sgsTable } from '../tables.js';
import type { CheckCount, ImportChecks } from './checks.js';
import { planSagoRunsImport, writeSagoRunsImport } from './sago-runs.js';

/** What an import takes of the base flags: where to write, how to say what it read, and the ablations' seed. */
const IMPORT_FLAGS = commandFlags({ groups: ['store', 'output', 'seed'] });

/**
 * `waver import sago-runs DIR...` (docs/sago.md#import): the SAGO authors' run folders into the
 * store, then a summary — what was read, what the checks of the recorded values found, and the
 * SGS per model x dataset x axis as the sago report computes it. Bad input: exit 2, nothing written.
 */
export const sagoRunsImportCommand: ProtocolCommand<SagoPromptSets, SagoResults, RunOutcome<SagoResults>> = (
  _sago,
  ctx,
) => {
  const cmd = new Command('sago-runs')
    .description(
      "read the SAGO authors' run folders (full_results_all_models.csv + metadata.json) as sago suites",
    )
    .argument('<dirs...>', 'run folders, or folders holding run_* folders (e.g. results/closed_models)')
    .option(
      '--paper',
      "compute Delta with the paper's reading (baseline self-similarity, ...) instead of the authors' code",
    );
  return IMPORT_FLAGS.addTo(cmd).action(async (dirs: string[], o: { paper?: boolean }) => {
    const config = IMPORT_FLAGS.config(cmd, ctx.config);
    // The authors' runs are compared with the authors' definitions unless --paper; the
    // tolerances and ablation settings of waver.yaml apply.
    const own = sagoSettings(config);
    const settings = SagoConfig.parse({
      reference: !o.paper,
      eps: own.eps,
      primaryEps: own.primaryEps,
      ablation: own.ablation,
    });
    const plan = planSagoRunsImport(dirs);
    const store = openStore(config.store);
    try {
      const suites = writeSagoRunsImport(store, plan, {
        settings,
        seed: config.seed,
        minCoverage: config.minCoverage,
      });
      const results = suites.map((s) => loadSagoResults(store, s.suiteHash, { ablations: false }));
      const summary = {
        store: config.store,
        runs: plan.runs.map((r) => ({
          folder: r.folder,
          model: r.model,
          dataset: r.dataset,
          style: r.style,
          rows: r.rows.length,
          columns: r.columns,
          maxTokens: r.maxTokens,
          temperature: r.temperature,
        })),
        suites,
        checks: plan.checks,
        settings: {
          reference: settings.reference,
          deltaBaseline: settings.deltaBaseline,
          sentenceForm: settings.sentenceForm,
          zeroStrength: settings.zeroStrength,
          bleuMode: settings.bleuMode,
        },
        sgs: results.flatMap(sgsTable),
      };
      emit(
        config.format === 'json' ? `${JSON.stringify(summary, null, 2)}\n` : summaryMarkdown(summary),
        config.out,
      );
    } finally {
      store.close();
    }
  });
};

function checkLine(name: string, c: CheckCount): string {
  if (c.checked === 0) return `- ${name}: nothing to check`;
  if (c.mismatches.length === 0) return `- ${name}: ${c.checked} of ${c.checked} agree`;
  const shown = c.mismatches
    .slice(0, 10)
    .map((m) => `${m.run}:${m.line} ${m.column} recorded ${m.recorded} vs ${m.expected}`)
    .join('; ');
  return `- ${name}: ${c.mismatches.length} of ${c.checked} MISMATCH (${shown}${c.mismatches.length > 10 ? '; ...' : ''})`;
}

function summaryMarkdown(s: {
  store: string;
  runs: { folder: string; model: string; dataset: string; style: string; rows: number; columns: number }[];
  suites: { model: string; suiteHash: string; tests: number }[];
  checks: ImportChecks;
  settings: { reference: boolean; deltaBaseline: string };
  sgs: ReturnType<typeof sgsTable>;
}): string {
  const out: string[] = ['# waver import sago-runs', ''];
  out.push(`Read ${s.runs.length} run folder${s.runs.length === 1 ? '' : 's'} into ${s.store}:`, '');
  for (const r of s.runs)
    out.push(`- ${r.folder}: ${r.model}, ${r.dataset}, ${r.style}, ${r.rows} rows, ${r.columns} columns`);
  out.push('');
  for (const x of s.suites)
    out.push(
      `- suite sago/responses ${x.suiteHash.slice(0, 12)}: ${x.model}, ${x.tests} tests (variant + its baseline per row)`,
    );
  out.push('', 'Checks of the recorded values:', '');
  out.push(checkLine("bleu = waver's corpus_bleu of the pair", s.checks.bleu));
  out.push(checkLine('delta_* = raw minus the style baseline row', s.checks.deltas));
  out.push(checkLine('delta_log_prob = 0 on baseline rows', s.checks.baselineLogprob));
  out.push(checkLine("mirroring_rate = waver's port of the authors' rule", s.checks.mirroring));
  out.push(
    '',
    `SGS (${s.settings.reference ? "the authors' Delta: minus the style baseline row" : "the paper's Delta: minus the baseline's self-similarity"}):`,
    '',
  );
  out.push('| model | dataset | axis | SGS | sd | n | p (eps 0.05) |', '|---|---|---|---:|---:|---:|---:|');
  for (const r of s.sgs)
    out.push(
      `| ${r.model} | ${r.dataset} | ${r.axis} | ${r.sgs === undefined ? 'n/a' : r.sgs.toFixed(3)} | ${r.sd === undefined ? 'n/a' : r.sd.toFixed(3)} | ${r.n} | ${r.p['0.05'] === undefined ? 'n/a' : r.p['0.05'].toPrecision(3)} |`,
    );
  return `${out.join('\n')}\n`;
}
