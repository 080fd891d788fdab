import { Command, Option } from 'commander';
import { commandFlags } from '../../../command-kit/options.js';
import { emit } from '../../../command-kit/output.js';
import type { WaverConfig } from '../../../config/schema.js';
import { openStore } from '../../../store/store.js';
import type { ProtocolCommand } from '../../adapters.js';
import type { ParaphraseOutcome } from '../protocol.js';
import { loadParaphraseResults, type ParaphraseResults } from '../results.js';
import type { ParaphraseItems } from '../run.js';
import { formatParaphraseReport } from '../tables.js';
import { planLmEvalImport } from './lm-eval.js';
import { comparingVerdicts } from './plan-suites.js';
import { planPromptfooImport } from './promptfoo.js';
import { type ImportedSuite, type ImportedSuitePlan, writeImport } from './write.js';

/** What an import takes of the base flags: where to write, how to say what it read, the bootstrap's seed. */
const IMPORT_FLAGS = commandFlags({ groups: ['store', 'output', 'seed'] });

const answersOption = () =>
  new Option(
    '--answers <what>',
    "what the instabilities compare across repeats and variants: the 'output' (the chosen option, the text) or the 'verdict' (right or wrong)",
  )
    .choices(['output', 'verdict'])
    .default('output');

type ImportCommand = ProtocolCommand<ParaphraseItems, ParaphraseResults, ParaphraseOutcome>;

/** What one kind of import read, said before the figures. */
interface ReadAccount {
  lines: string[];
  json: Record<string, unknown>;
}

/**
 * `waver import lm-eval DIR...` (docs/import.md#lm-eval): lm-evaluation-harness's `--log_samples`
 * output into the store as paraphrase suites, then their figures as `waver report` computes them.
 */
export const lmEvalImportCommand: ImportCommand = (_p, ctx) => {
  const cmd = new Command('lm-eval')
    .description(
      "read lm-evaluation-harness's --log_samples output (results_*.json + samples_<task>_*.jsonl): tasks over the same documents as prompt variants, repeats, one model per run",
    )
    .argument('<dirs...>', 'run folders (one per model), or an --output_path holding them')
    .option('--metric <name>', "the per-sample metric that says right or wrong (default: each task's first)")
    .addOption(answersOption());
  return IMPORT_FLAGS.addTo(cmd).action((dirs: string[], o: { metric?: string; answers: string }) => {
    const config = IMPORT_FLAGS.config(cmd, ctx.config);
    const plan = planLmEvalImport(dirs, o.metric === undefined ? {} : { metric: o.metric });
    const read: ReadAccount = {
      lines: [
        ...plan.runs.map((r) => `- ${r.file}: ${r.model}, tasks ${r.tasks.join(', ')}`),
        `- multiple-choice verdicts recomputed from the log-likelihoods agree with lm-eval's: ${plan.check.agree} of ${plan.check.checked}`,
      ],
      json: { runs: plan.runs, check: plan.check },
    };
    importAndSummarise('lm-eval', config, answersBy(o.answers, plan.suites), read);
  });
};

/**
 * `waver import promptfoo results.json...` (docs/import.md#promptfoo): promptfoo's eval output
 * (prompts x providers x test cases x repeats) into the store, then its paraphrase figures.
 */
export const promptfooImportCommand: ImportCommand = (_p, ctx) => {
  const cmd = new Command('promptfoo')
    .description(
      "read promptfoo's eval output (promptfoo eval -o results.json): prompts as variants, test cases as items, --repeat as repeats, providers as models",
    )
    .argument('<files...>', 'results.json files written by promptfoo eval -o')
    .option(
      '--metric <name>',
      "what says right or wrong: 'success' (every assertion passed; default) or an assertion's type",
    )
    .addOption(answersOption());
  return IMPORT_FLAGS.addTo(cmd).action((files: string[], o: { metric?: string; answers: string }) => {
    const config = IMPORT_FLAGS.config(cmd, ctx.config);
    const plan = planPromptfooImport(files, o.metric === undefined ? {} : { metric: o.metric });
    const read: ReadAccount = {
      lines: plan.evals.map(
        (e) => `- ${e.file}: eval ${e.evalId}, promptfoo ${e.version ?? 'unknown'}, ${e.results} results`,
      ),
      json: { evals: plan.evals },
    };
    importAndSummarise('promptfoo', config, answersBy(o.answers, plan.suites), read);
  });
};

function answersBy(answers: string, plans: ImportedSuitePlan[]): ImportedSuitePlan[] {
  return answers === 'verdict' ? comparingVerdicts(plans) : plans;
}

/** Writes the planned suites (all or nothing) and prints each suite's paraphrase figures from the store. */
function importAndSummarise(
  kind: string,
  config: WaverConfig,
  plans: readonly ImportedSuitePlan[],
  read: ReadAccount,
): void {
  const store = openStore(config.store);
  try {
    const suites = writeImport(store, plans);
    const results = suites.map((s) =>
      loadParaphraseResults(store, s.suiteHash, { seed: config.seed, minCoverage: config.minCoverage }),
    );
    if (config.format === 'json') {
      const figures = results.map((r) => JSON.parse(formatParaphraseReport(r, 'json')));
      emit(
        `${JSON.stringify({ store: config.store, ...read.json, suites, figures }, null, 2)}\n`,
        config.out,
      );
      return;
    }
    emit(summaryMarkdown(kind, config.store, suites, read, results), config.out);
  } finally {
    store.close();
  }
}

function summaryMarkdown(
  kind: string,
  storePath: string,
  suites: readonly ImportedSuite[],
  read: ReadAccount,
  results: readonly ParaphraseResults[],
): string {
  const out = [`# waver import ${kind}`, '', `Read into ${storePath}:`, '', ...read.lines, ''];
  for (const s of suites)
    out.push(
      `- suite paraphrase/items ${s.suiteHash.slice(0, 12)}: ${s.items} items x ${s.variants.length} variants (${s.variants.join(', ')}); ${s.models
        .map((m) => `${m.label} ${m.cells} cells${m.failed > 0 ? ` (${m.failed} errors)` : ''}`)
        .join(', ')}`,
    );
  out.push('');
  for (const r of results) out.push(formatParaphraseReport(r, 'md'));
  return `${out.join('\n')}\n`;
}
