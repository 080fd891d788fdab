import { compareEvalModels, comparisonMarkdown, type EvalComparison } from '../../check/eval-comparison.js';
import { type DatasetSource, describeDatasetSource } from '../../data/provenance.js';
import { type ModelOrder, modelOrder } from '../../report/model-order.js';
import type { RunSummary } from '../../run/types.js';
import { paraphraseVerdicts } from './check.js';
import type { Estimate } from './metrics.js';
import type { ParaphraseModelResult, ParaphraseResults } from './results.js';

/**
 * The paraphrase report in Markdown or JSON: the leaderboard (raw accuracy vs SAA, with CIs), the
 * incomplete models (reported, not ranked), accuracy and parse rate per phrasing, run vs prompt
 * instability, the flips behind every lost point, and the failed cells. Every number says what it
 * is over; a number that cannot be computed is shown as "—" with the reason.
 */

export interface ParaphraseReportExtras {
  /** Items left out because their rewording failed (from the run, not the store). */
  dropped?: { item: string; reason: string }[];
  /** The run's calls and time, when the report follows a run. */
  run?: { runId: string } & Omit<RunSummary, 'coverage'>;
  /**
   * End on the models' comparison (a run's output; default). The report passes false: its eval
   * page opens on the same comparison (docs/report.md#comparison).
   */
  comparison?: boolean;
}

/** The models ranked and compared with `check --compare`'s test, when the output ends on it and there are two. */
function comparisonOf(
  results: ParaphraseResults,
  extras: ParaphraseReportExtras,
): EvalComparison | undefined {
  if (extras.comparison === false) return undefined;
  return compareEvalModels(paraphraseVerdicts(results), { suiteHash: results.suite.hash });
}

/** Markdown rows shown per table before "... N more" (JSON always has everything). */
const MAX_ROWS = 100;

export function formatParaphraseReport(
  results: ParaphraseResults,
  format: 'md' | 'json',
  extras: ParaphraseReportExtras = {},
): string {
  // A run's output lists the models as the comparison it ends on ranks them; the report hands
  // its results already in the eval's order (docs/report.md#model-order).
  const ordered =
    extras.comparison === false
      ? results
      : paraphraseInOrder(results, modelOrder(comparisonOf(results, extras)));
  if (format === 'json')
    return `${JSON.stringify(toJson(ordered, extras), (_k, v) => (v === undefined ? null : v), 2)}\n`;
  return `${markdown(ordered, extras).join('\n')}\n`;
}

/**
 * The results with their models in `order`: every per-model table and chart lists them so. The
 * leaderboard keeps its SAA ranking (`leaderboard.ranked`), shown as a column.
 */
export function paraphraseInOrder(results: ParaphraseResults, order: ModelOrder): ParaphraseResults {
  return { ...results, models: order.sort(results.models, (m) => m) };
}

function toJson(results: ParaphraseResults, extras: ParaphraseReportExtras) {
  const row = (m: ParaphraseModelResult) => ({
    label: m.label,
    identity: m.identity,
    saa: m.metrics.saa,
    rawAccuracy: m.metrics.rawAccuracy,
    gap:
      m.metrics.saa.value !== undefined && m.metrics.rawAccuracy.value !== undefined
        ? m.metrics.rawAccuracy.value - m.metrics.saa.value
        : undefined,
    parse: m.metrics.parse,
    coverage: m.metrics.coverage,
  });
  return {
    protocol: 'paraphrase',
    suite: results.suite,
    settings: results.settings,
    // In the eval's order, as every table; `rank` is the SAA rank.
    leaderboard: results.models
      .filter((m) => results.leaderboard.ranked.includes(m.identity))
      .map((m) => ({ rank: results.leaderboard.ranked.indexOf(m.identity) + 1, ...row(m) })),
    incomplete: results.models.filter((m) => results.leaderboard.incomplete.includes(m.identity)).map(row),
    models: results.models,
    ...(extras.dropped ? { dropped: extras.dropped } : {}),
    ...(extras.run ? { run: extras.run } : {}),
    ...withComparison(comparisonOf(results, extras)),
  };
}

export function pct(x: number | undefined): string {
  return x === undefined ? '—' : `${(x * 100).toFixed(1)}%`;
}

/** `90.6% [81.3–100.0]`, or `— (reason)`. */
export function withCi(e: Estimate): string {
  if (e.value === undefined) return `— (${e.unavailable ?? 'unavailable'})`;
  const ci =
    e.low !== undefined && e.high !== undefined
      ? ` [${(e.low * 100).toFixed(1)}–${(e.high * 100).toFixed(1)}]`
      : '';
  return `${pct(e.value)}${ci}`;
}

function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

/** Where the items came from and their licence (docs/datasets.md#licences). */
function datasetLicence(source: DatasetSource | undefined): string {
  return source ? describeDatasetSource(source) : "waver's own items, licence: MIT, as waver";
}

function markdown(results: ParaphraseResults, extras: ParaphraseReportExtras): string[] {
  const models = results.models;
  return [
    ...header(results, extras),
    ...leaderboard(results),
    ...incompleteModels(results),
    ...perPhrasing(results, models),
    ...instability(models),
    ...flipsTable(models),
    ...neverCorrect(models),
    ...failedCells(models),
    ...(extras.run ? [runLine(extras.run)] : []),
    ...comparisonSection(comparisonOf(results, extras)),
  ];
}

function withComparison(comparison: EvalComparison | undefined): { comparison?: EvalComparison } {
  return comparison ? { comparison } : {};
}

/** The answer last in a run's output, where the terminal leaves the reader. */
function comparisonSection(comparison: EvalComparison | undefined): string[] {
  return comparison ? ['', '### Comparison', '', ...comparisonMarkdown(comparison)] : [];
}

/** The dataset and design, where the keys and reworded stems came from, and what the CIs are. */
function header(results: ParaphraseResults, extras: ParaphraseReportExtras): string[] {
  const s = results.suite;
  const cellsPerModel = s.items * s.phrasings.length * s.repeats;
  const cats = Object.entries(s.categories)
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  const out: string[] = [
    '## paraphrase: Stability-Adjusted Accuracy',
    '',
    `dataset \`${s.dataset}\` (${s.importedFrom ? `imported from ${s.importedFrom}; licence: the source dataset's` : datasetLicence(s.datasetSource)}): ${s.items} items (${cats}) x ${s.phrasings.length} phrasings (${s.phrasings.join(', ')}) x ${s.repeats} repeats = ${cellsPerModel} cells per model · suite \`${s.name}\` sha256 ${s.hash.slice(0, 12)}`,
    '',
    s.importedFrom
      ? `Imported runs (docs/import.md): each phrasing is one of ${s.importedFrom}'s prompt variants, each verdict the one ${s.importedFrom} recorded for that answer (not re-parsed: the parse rate is 100%).`
      : s.keysVerified === 0
        ? `Keys: no rule could recompute any of them; all ${s.items} taken as the dataset states them.`
        : `Keys: ${s.keysVerified} of ${s.items} recomputed by a rule before any call, all matched; ${s.items - s.keysVerified} taken as the dataset states them.`,
  ];
  if (s.phrasings.includes('reworded'))
    out.push(
      `Reworded stems: ${s.reworded.alternate} from the items' alternate wordings, ${s.reworded.generator} written by the generator${s.reworded.generators.length ? ` (${s.reworded.generators.join(', ')})` : ''}.`,
    );
  if (extras.dropped?.length)
    out.push(
      `Left out before the run (rewording failed, for every model): ${extras.dropped.map((d) => `${d.item} (${d.reason})`).join('; ')}.`,
    );
  out.push(
    `CIs: 95% percentile intervals from a cluster bootstrap over items (${results.settings.resamples} resamples, seed ${results.settings.seed}). SAA counts an item only if every phrasing x repeat is correct; items with a failed cell are excluded and counted. Unparsed replies count as wrong.`,
    '',
  );
  return out;
}

/** Complete models, in the eval's order, with their SAA rank, and raw accuracy beside SAA. */
function leaderboard(results: ParaphraseResults): string[] {
  const s = results.suite;
  const ranked = results.leaderboard.ranked;
  const out = [
    "### Leaderboard (complete models, in the eval's order; SAA rank in the first column)",
    '',
    '| SAA rank | model | SAA [95% CI] | items scored | raw accuracy [95% CI] | raw − SAA | parse rate | coverage |',
    '|---:|---|---|---:|---|---:|---:|---:|',
  ];
  if (ranked.length === 0) out.push('| — | no complete model | | | | | | |');
  for (const r of results.models) {
    const rank = ranked.indexOf(r.identity);
    if (rank < 0) continue;
    const m = r.metrics;
    const gap =
      m.saa.value !== undefined && m.rawAccuracy.value !== undefined
        ? `${((m.rawAccuracy.value - m.saa.value) * 100).toFixed(1)} pts`
        : '—';
    out.push(
      `| ${rank + 1} | ${cell(r.label)} | ${withCi(m.saa)} | ${m.saa.itemsScored}/${s.items} | ${withCi(m.rawAccuracy)} | ${gap} | ${pct(m.parse.rate)} (${m.parse.parsed}/${m.parse.done}) | ${pct(m.coverage.share)} |`,
    );
  }
  out.push(
    '',
    "SAA rank by SAA's point estimates; whether two models differ is the paired test's (the comparison), not whether their intervals overlap.",
    '',
  );
  return out;
}

/** Models below the coverage threshold: reported, not ranked. */
function incompleteModels(results: ParaphraseResults): string[] {
  const board = results.leaderboard;
  if (board.incomplete.length === 0) return [];
  const out = [
    `### Incomplete models (coverage below ${pct(results.settings.minCoverage)}): reported, not ranked`,
    '',
    '| model | coverage | done | failed | pending | failed by reason | SAA (complete items only) | raw accuracy |',
    '|---|---:|---:|---:|---:|---|---|---|',
  ];
  for (const r of results.models.filter((m) => board.incomplete.includes(m.identity))) {
    const c = r.metrics.coverage;
    const reasons = Object.entries(c.errorsByKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    out.push(
      `| ${cell(r.label)} | ${pct(c.share)} (${c.done}/${c.expected}) | ${c.done} | ${c.failed} | ${c.pending} | ${reasons || '—'} | ${withCi(r.metrics.saa)} | ${withCi(r.metrics.rawAccuracy)} |`,
    );
  }
  out.push('');
  return out;
}

/** Accuracy and parse rate of each model in each phrasing. */
function perPhrasing(results: ParaphraseResults, models: readonly ParaphraseModelResult[]): string[] {
  const s = results.suite;
  return [
    `### Accuracy per phrasing (95% CI; each over ${s.items * s.repeats} cells: ${s.items} items x ${s.repeats} repeats)`,
    '',
    `| model | ${s.phrasings.join(' | ')} |`,
    `|---|${s.phrasings.map(() => '---').join('|')}|`,
    ...models.map(
      (r) => `| ${cell(r.label)} | ${r.metrics.perPhrasing.map((p) => withCi(p.accuracy)).join(' | ')} |`,
    ),
    '',
    '### Parse rate per phrasing (parsed replies / done cells)',
    '',
    `| model | ${s.phrasings.join(' | ')} | all |`,
    `|---|${s.phrasings.map(() => '---:').join('|')}|---:|`,
    ...models.map(
      (r) =>
        `| ${cell(r.label)} | ${r.metrics.perPhrasing.map((p) => `${pct(p.parseRate)} (${p.parsed}/${p.done})`).join(' | ')} | ${pct(r.metrics.parse.rate)} (${r.metrics.parse.parsed}/${r.metrics.parse.done}) |`,
    ),
  ];
}

/** Run vs prompt instability of each model, with what each is over. */
function instability(models: readonly ParaphraseModelResult[]): string[] {
  return [
    '',
    "### Instability (answers compared in the item's own lettering; an unparsed reply is an answer of its own)",
    '',
    '| model | run instability [95% CI] | over | prompt instability [95% CI] | over |',
    '|---|---|---|---|---|',
    ...models.map(
      ({ label, metrics: m }) =>
        `| ${cell(label)} | ${withCi(m.runInstability)} | ${m.runInstability.over} | ${withCi(m.promptInstability)} | ${m.promptInstability.over} |`,
    ),
    '',
    'Run instability: share of (item, phrasing) whose repeats disagree (same prompt asked again). Prompt instability: share of (item, repeat) whose answers differ across phrasings.',
    '',
  ];
}

/** Every lost point of an item the model also got right, the first MAX_ROWS in Markdown. */
function flipsTable(models: readonly ParaphraseModelResult[]): string[] {
  const flips = models.flatMap((r) => r.metrics.flips.map((f) => ({ model: r.label, ...f })));
  const out = [
    `### Flips (${flips.length}): wrong or unparsed answers to items the model answered correctly elsewhere`,
    '',
  ];
  if (flips.length === 0) return [...out, 'No flips.', ''];
  out.push(
    '| model | item | phrasing | repeat | answer given | key | reply |',
    '|---|---|---|---:|---|---|---|',
  );
  for (const f of flips.slice(0, MAX_ROWS))
    out.push(
      `| ${cell(f.model)} | ${f.item} | ${f.phrasing} | ${f.repeat} | ${f.given}${f.answer !== undefined && f.answer !== f.given ? ` (item's ${f.answer})` : ''} | ${f.key ?? '—'} | ${cell((f.note ?? '').slice(0, 80))} |`,
    );
  if (flips.length > MAX_ROWS)
    out.push('', `... and ${flips.length - MAX_ROWS} more flips (all of them are in the JSON report).`);
  out.push('');
  return out;
}

/** Items a model never answered correctly: lost to SAA without a flip. */
function neverCorrect(models: readonly ParaphraseModelResult[]): string[] {
  return models.flatMap((r) =>
    r.metrics.neverCorrect.length > 0
      ? [
          `Never answered correctly by ${r.label} (${r.metrics.neverCorrect.length} items, lost to SAA without a flip): ${r.metrics.neverCorrect.join(', ')}`,
          '',
        ]
      : [],
  );
}

/** The failed cells, counted as wrong and in coverage, the first MAX_ROWS in Markdown. */
function failedCells(models: readonly ParaphraseModelResult[]): string[] {
  const errors = models.flatMap((r) => r.metrics.errors.map((e) => ({ model: r.label, ...e })));
  if (errors.length === 0) return [];
  const out = [
    `### Failed cells (${errors.length}): counted as wrong and in coverage`,
    '',
    '| model | item | phrasing | repeat | reason |',
    '|---|---|---|---:|---|',
  ];
  for (const e of errors.slice(0, MAX_ROWS))
    out.push(
      `| ${cell(e.model)} | ${e.item} | ${e.phrasing} | ${e.repeat} | ${cell(`${e.kind}: ${e.message}`.slice(0, 120))} |`,
    );
  if (errors.length > MAX_ROWS)
    out.push('', `... and ${errors.length - MAX_ROWS} more (all of them are in the JSON report).`);
  out.push('');
  return out;
}

/** The run's calls and time, when the report follows a run. */
function runLine(x: NonNullable<ParaphraseReportExtras['run']>): string {
  return `run ${x.runId} · calls ${x.calls} (${x.retries} retries) · tokens ${x.tokensIn} in / ${x.tokensOut} out · ${(x.elapsedMs / 1000).toFixed(2)} s${x.aborted ? ' · ABORTED: re-run the same command to finish' : ''}`;
}
