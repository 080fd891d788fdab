import { adjustPValues, familyConfidence } from '../stats/multiplicity.js';
import { type PairedComparison, pairedComparison } from '../stats/paired.js';
import { type CompareResult, decideTest, joinVerdicts } from './compare.js';
import type { CompareDef, ModelRef, Verdict } from './types.js';

/**
 * The answer first (docs/report.md#comparison): for an eval with two or more models, which is
 * more accurate, by how much and how sure, from the paired test `waver check --compare` runs: the
 * same pairing (joinVerdicts), the same McNemar p and interval (pairedComparison) and the same
 * decision (decideTest), for every pair of models, the p-values Holm-adjusted over those pairs.
 * The report's eval page opens on it and a protocol's run ends on it; it knows no protocol.
 */

/** A model's verdicts on an eval's pair keys, as its protocol's CompareDef reads them. */
export interface ModelVerdicts extends ModelRef {
  verdicts: ReadonlyMap<string, Verdict>;
}

/** What a protocol hands the comparison: what a pair and a cluster are, and each model's verdicts. */
export interface EvalVerdicts {
  unit: CompareDef['unit'];
  models: ModelVerdicts[];
}

export interface RankedModel extends ModelRef {
  rank: number;
  /** Answers right, of those scored (the verdicts the test pairs). */
  right: number;
  scored: number;
  accuracy: number | undefined;
}

/** One pair of models: the higher-ranked is check's `new`, so the difference is higher - lower. */
export interface ModelPairTest {
  higher: ModelRef;
  lower: ModelRef;
  comparison: PairedComparison;
  /** McNemar's exact p, Holm-adjusted over the eval's pairs of models. */
  pAdjusted: number;
  unpaired: CompareResult['unpaired'];
  /** The higher-ranked model is significantly more accurate (decideTest's `better`). */
  better: boolean;
  /** The same test's verdict as check words it, with base = lower and new = higher. */
  verdict: string;
  /** The same in words, with the figures. */
  sentence: string;
  /** The command that runs this very test. */
  command: string;
}

export interface EvalComparison {
  unit: CompareDef['unit'];
  alpha: number;
  adjust: 'holm';
  /** Pairs of models tested: what the p-values are adjusted over. */
  comparisons: number;
  /** Of every interval: 1 - alpha / comparisons (Bonferroni's, the first step of Holm). */
  confidence: number;
  ranking: RankedModel[];
  tests: ModelPairTest[];
  /** The answer in one sentence: who ranks first and whether the data support it. */
  headline: string;
}

export interface EvalComparisonOptions {
  /** 0.05 by default, as check's `--alpha`. */
  alpha?: number;
  /** The suite's hash, for the command that reruns a test. */
  suiteHash?: string;
}

/** Undefined with fewer than two models: there is nothing to compare. */
export function compareEvalModels(
  input: EvalVerdicts,
  opts: EvalComparisonOptions = {},
): EvalComparison | undefined {
  if (input.models.length < 2) return undefined;
  const alpha = opts.alpha ?? 0.05;
  const ranking = rank(input.models);
  const byIdentity = new Map(input.models.map((m) => [m.identity, m]));
  const duos: [RankedModel, RankedModel][] = [];
  for (let i = 0; i < ranking.length; i++)
    for (let j = i + 1; j < ranking.length; j++)
      duos.push([ranking[i] as RankedModel, ranking[j] as RankedModel]);
  const confidence = familyConfidence(alpha, duos.length, 'holm');
  const joined = duos.map(([h, l]) =>
    joinVerdicts(
      (byIdentity.get(l.identity) as ModelVerdicts).verdicts,
      (byIdentity.get(h.identity) as ModelVerdicts).verdicts,
    ),
  );
  const comparisons = joined.map((j) => pairedComparison(j.pairs, { confidence }));
  const adjusted = adjustPValues(
    comparisons.map((c) => c.mcnemar.p),
    'holm',
  );
  const k = duos.length;
  const tests = duos.map(([higher, lower], i): ModelPairTest => {
    const comparison = comparisons[i] as PairedComparison;
    const pAdjusted = adjusted[i] as number;
    const test = decideTest('all', comparison, pAdjusted, { alpha }, input.unit.cluster);
    const refs = { higher: ref(higher), lower: ref(lower) };
    return {
      ...refs,
      comparison,
      pAdjusted,
      unpaired: (joined[i] as ReturnType<typeof joinVerdicts>).unpaired,
      better: test.better,
      verdict: test.verdict,
      sentence: sentence(refs, comparison, pAdjusted, test.better, { alpha, k, unit: input.unit }),
      command: checkCommand(refs, ranking, opts.suiteHash),
    };
  });
  return {
    unit: input.unit,
    alpha,
    adjust: 'holm',
    comparisons: k,
    confidence,
    ranking,
    tests,
    headline: headline(ranking, tests[0] as ModelPairTest, alpha),
  };
}

/** By accuracy over each model's scored answers, best first; ties by label. */
function rank(models: readonly ModelVerdicts[]): RankedModel[] {
  return models
    .map((m) => {
      let right = 0;
      let scored = 0;
      for (const v of m.verdicts.values())
        if (v.correct !== undefined) {
          scored++;
          if (v.correct) right++;
        }
      return { ...ref(m), right, scored, accuracy: scored === 0 ? undefined : right / scored };
    })
    .sort(
      (a, b) =>
        (b.accuracy ?? Number.NEGATIVE_INFINITY) - (a.accuracy ?? Number.NEGATIVE_INFINITY) ||
        a.label.localeCompare(b.label),
    )
    .map((m, i) => ({ ...m, rank: i + 1 }));
}

function ref(m: ModelRef): ModelRef {
  return { label: m.label, identity: m.identity };
}

function sentence(
  { higher, lower }: { higher: ModelRef; lower: ModelRef },
  c: PairedComparison,
  pAdjusted: number,
  better: boolean,
  ctx: { alpha: number; k: number; unit: CompareDef['unit'] },
): string {
  if (c.n === 0) return `${higher.label} and ${lower.label} have no test answered by both: no comparison.`;
  const figures = `${higher.label} − ${lower.label} = ${differenceText(c)} over ${c.n} pairs in ${c.clusters} ${ctx.unit.cluster}s; ${pText(c, pAdjusted, ctx.k)}`;
  if (better) return `${higher.label} is more accurate than ${lower.label}: ${figures}.`;
  if (pAdjusted < ctx.alpha)
    return `${higher.label} answered right more often than ${lower.label}, but the interval includes 0 once pairs that share a ${ctx.unit.cluster} may be correlated: not a significant difference (${figures}).`;
  return `${higher.label} and ${lower.label} are not significantly different at alpha ${ctx.alpha}: ${figures}.`;
}

function headline(ranking: readonly RankedModel[], top: ModelPairTest, alpha: number): string {
  const first = ranking[0] as RankedModel;
  if (first.accuracy === undefined) return 'No model has a scored answer: no ranking.';
  const second = ranking[1] as RankedModel;
  if (second.accuracy === first.accuracy)
    return `${first.label} and ${second.label} tie on accuracy (${first.accuracy.toFixed(3)}); the paired test: ${differenceText(top.comparison)}, ${top.better ? 'significant' : 'not significant'} at alpha ${alpha}.`;
  if (top.comparison.n === 0)
    return `${first.label} ranks first on accuracy, but it shares no answered test with ${top.lower.label}: no paired test.`;
  return top.better
    ? `${first.label} ranks first: significantly more accurate than ${top.lower.label} (alpha ${alpha}), by ${differenceText(top.comparison)}.`
    : `${first.label} ranks first on accuracy, but the paired test does not separate it from ${top.lower.label} at alpha ${alpha}: ${differenceText(top.comparison)}.`;
}

/** `+0.133 [95% CI +0.041, +0.221]`, the way check prints a difference. */
export function differenceText(c: PairedComparison): string {
  const d = c.difference;
  if (d.estimate === undefined) return '— (no pairs)';
  const end = (x: number | undefined) => (x === undefined ? '—' : signed(x));
  return `${signed(d.estimate)} [${Number((d.confidence * 100).toFixed(2))}% CI ${end(d.low)}, ${end(d.high)}]`;
}

function pText(c: PairedComparison, pAdjusted: number, k: number): string {
  const m = c.mcnemar;
  return `McNemar exact p = ${pval(m.p)} (b = ${m.b}, c = ${m.c})${k === 1 ? ', one comparison: nothing to adjust' : `, Holm-adjusted over ${k} pairs of models: ${pval(pAdjusted)}`}`;
}

/** `waver check --compare LOWER,HIGHER --suite HASH`: base the lower-ranked, as the difference reads. */
function checkCommand(
  { higher, lower }: { higher: ModelRef; lower: ModelRef },
  ranking: readonly RankedModel[],
  suiteHash: string | undefined,
): string {
  // A label shared by two identities must be given as an identity (docs/check.md#compare).
  const name = (m: ModelRef) =>
    ranking.filter((r) => r.label === m.label).length > 1 ? m.identity : m.label;
  const list = `${name(lower)},${name(higher)}`;
  const arg = /^[\w:./@=+,-]+$/.test(list) ? list : `'${list.replace(/'/g, `'\\''`)}'`;
  return `waver check --compare ${arg}${suiteHash ? ` --suite ${suiteHash.slice(0, 12)}` : ''}`;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
}

function pval(p: number): string {
  return p < 1e-4 ? p.toExponential(2) : p.toFixed(4);
}

/** The comparison in Markdown: the headline, the ranking, every pair's test, and how they are made. */
export function comparisonMarkdown(c: EvalComparison): string[] {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
  const row = (xs: string[]) => `| ${xs.map(cell).join(' | ')} |`;
  const pct = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(3));
  return [
    `**${c.headline}**`,
    '',
    row(['rank', 'model', 'accuracy', 'right / scored']),
    '|---|---|---|---|',
    ...c.ranking.map((m) => row([String(m.rank), m.label, pct(m.accuracy), `${m.right} / ${m.scored}`])),
    '',
    row([
      'higher − lower',
      'difference [CI]',
      'pairs',
      `${c.unit.cluster}s`,
      'b',
      'c',
      'McNemar p',
      'p (Holm)',
    ]),
    '|---|---|---|---|---|---|---|---|',
    ...c.tests.map((t) => {
      const m = t.comparison.mcnemar;
      return row([
        `${t.higher.label} − ${t.lower.label}`,
        differenceText(t.comparison),
        String(t.comparison.n),
        String(t.comparison.clusters),
        String(m.b),
        String(m.c),
        pval(m.p),
        pval(t.pAdjusted),
      ]);
    }),
    '',
    ...c.tests.map((t) => `- ${t.sentence} Reproduce: \`${t.command}\``),
    '',
    `Ranked by accuracy over each model's scored answers; a pair is one ${c.unit.pair} both models answered, b = the lower-ranked model right and the higher wrong, c = the reverse. The test is \`waver check --compare\`'s (docs/check.md#compare): McNemar's exact p, Holm-adjusted over the ${c.comparisons} pair${c.comparisons === 1 ? '' : 's'} of models; the difference with Newcombe's paired interval at ${Number((c.confidence * 100).toFixed(2))}%, widened by the design effect of the ${c.unit.cluster}s (pairs in one ${c.unit.cluster} are correlated).`,
  ];
}
