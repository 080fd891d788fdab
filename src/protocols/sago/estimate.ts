import type { WaverConfig } from '../../config/schema.js';
import { specLabel, toModelSpec } from '../../models/spec.js';
import { estimateTokens } from '../../run/call-path/rate-limit.js';
import { answerAtMost, auxEstimate, type ModelEstimate } from '../../run/estimate.js';
import { type PlannedModel, planCells, plannedModels } from '../../run/plan.js';
import { estimateRole } from '../../run/roles.js';
import { estimateSuite } from '../../run/run-suite.js';
import type { Cell, Suite } from '../../run/types.js';
import type { PooledOptions } from '../types.js';
import { computedAxes, type SagoModelRecord } from './axes.js';
import { type SagoConfig, sagoSettings } from './config.js';
import { wordEnds } from './embeddings.js';
import { politenessJudgePrompt } from './mirroring.js';
import type { SagoPromptSets } from './prompt-sets.js';
import { JUDGE_SUITE, RESPONSES_SUITE } from './results.js';
import { describeModels, judgedTestIds, openEmbedder, responsesSuite, sutConfig } from './run.js';
import { GENERATOR_SUITE } from './suite-names.js';
import type { SagoTest } from './test-meta.js';
import { type PromptVariants, structuralBatch, usesGenerator } from './variants.js';
import { FAMILY_OF } from './variations/index.js';

/** The aux stages' rows: the embedder's meaning filter, and every response's embeddings and scores. */
const MEANING_STAGE = 'sago/meaning-filter';
const AUX_STAGE = 'sago/aux';

/**
 * `--dry-run` of a sago run (docs/decisions.md E39), a row per role and stage in the order the run
 * asks them: the generator's structural rewrites (one per structural variant, exact), the
 * embedder's meaning filter, the systems under test's responses, the politeness judge, then each
 * response's embeddings, hidden states and scores. What depends on texts not written yet is a
 * bound: every text is taken as distinct and every response as long as its cap, and the responses
 * themselves are a bound when the generator or the filter can drop a variant. Calls nothing.
 */
export async function estimateSago(
  config: WaverConfig,
  { sets }: SagoPromptSets,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  const settings = sagoSettings(config);
  const generatorOn =
    sets.some((s) => s.variants.some((v) => v.family === 'structural')) && usesGenerator(config, settings);
  const rows: ModelEstimate[] = [];
  if (generatorOn)
    rows.push(
      ...(await estimateRole(config, 'generator', GENERATOR_SUITE, [structuralBatch(sets, settings)], opts)),
    );
  const embedder =
    config.embedder === undefined ? undefined : await openEmbedder(config.embedder, settings, opts.pool);
  const checked = meaningTexts(sets, generatorOn);
  const embedderModel = config.embedder === undefined ? undefined : plannedRole(config.embedder);
  if (embedder && embedderModel && checked.length > 0)
    rows.push(embedRow(embedderModel, MEANING_STAGE, checked, embedder.record.tokenLevel));
  const suite = responsesSuite(sets, settings);
  const models = await describeModels(config, opts.pool);
  const sut = {
    role: 'model',
    stage: RESPONSES_SUITE,
    bound: generatorOn || (embedder !== undefined && checked.length > 0),
  } as const;
  const cells = new Map<string, Cell[]>();
  for (const m of models) {
    const own = sutConfig(config, m, settings);
    rows.push(...(await estimateSuite(own, suite, opts, sut)));
    cells.set(m.label, [...planCells(suite, plannedModels(own), own)]);
  }
  if (config.judge !== undefined) rows.push(...(await judgeRows(config, settings, suite, cells, opts)));
  const axisCtx = {
    embedder: embedder?.record,
    judge: config.judge && specLabel(toModelSpec(config.judge)),
    settings,
  };
  for (const m of models)
    rows.push(
      ...auxRows(config, settings, m, suite, cells.get(m.label) ?? [], { axisCtx, embedder: embedderModel }),
    );
  return rows;
}

function plannedRole(spec: NonNullable<WaverConfig['embedder']>): PlannedModel {
  const model = toModelSpec(spec, { field: 'embedder' });
  return { label: specLabel(model), spec: model };
}

/**
 * The texts the meaning filter embeds: each register or structural variant that is not the prompt
 * itself (a generator's rewrite stands in by the rule's text), and the prompt beside it; a text is
 * embedded once.
 */
function meaningTexts(sets: readonly PromptVariants[], generatorOn: boolean): string[] {
  const texts = new Set<string>();
  let rewrites = 0;
  for (const { prompt, variants } of sets) {
    const own = variants.filter((v) => FAMILY_OF[v.subtype] !== 'noise' && v.text !== prompt.prompt.text);
    if (own.length === 0) continue;
    texts.add(prompt.prompt.text);
    // Each rewrite is a text of its own, whatever the rule's text was.
    for (const v of own)
      if (generatorOn && v.family === 'structural') texts.add(`\u0000${rewrites++}\u0000${v.text}`);
      else texts.add(v.text);
  }
  return [...texts];
}

/** The embedder's calls for texts: one a text pooled, one a word with word-prefix embeddings. */
function embedRow(
  embedder: PlannedModel,
  stage: string,
  texts: readonly string[],
  tokenLevel: boolean,
): ModelEstimate {
  let calls = 0;
  let input = 0;
  for (const text of texts) {
    const words = tokenLevel ? wordEnds(text).length : 1;
    calls += words;
    input += tokenLevel
      ? prefixTokens(estimateTokens({ messages: [{ content: text }] }), words)
      : estimateTokens({ messages: [{ content: text }] });
  }
  return auxEstimate(embedder, { role: 'embedder', stage, bound: true }, calls, input);
}

/** Prompt tokens of a text's word prefixes, each embedded whole: about half its tokens, once per word. */
function prefixTokens(tokens: number, words: number): number {
  return Math.ceil((tokens * (words + 1)) / 2);
}

/** The politeness judge: one call per response of a register variant and its baseline, at most (responses are judged once per text). */
async function judgeRows(
  config: WaverConfig,
  settings: SagoConfig,
  suite: Suite<SagoTest>,
  cells: ReadonlyMap<string, Cell[]>,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  const needs = judgedTestIds(suite);
  const tests = [...cells].flatMap(([label, own]) =>
    own
      .filter((c) => needs.has(c.testId))
      .map((c) => ({
        id: `${label}/${c.testId}/${c.repeat}`,
        prompt: politenessJudgePrompt(answerAtMost(c.request.maxTokens)),
      })),
  );
  if (tests.length === 0) return [];
  const batch = { temperature: 0, maxTokens: settings.judgeMaxTokens, tests };
  return estimateRole(config, 'judge', JUDGE_SUITE, [batch], opts, true);
}

/**
 * A model's aux calls per response (auxStage): its own hidden state (activation) and teacher-forced
 * score, and the embedder's pooled or word-prefix embeddings, as the axes it is computed on ask.
 */
function auxRows(
  config: WaverConfig,
  settings: SagoConfig,
  m: SagoModelRecord,
  suite: Suite<SagoTest>,
  cells: readonly Cell[],
  ctx: { axisCtx: Parameters<typeof computedAxes>[1]; embedder?: PlannedModel },
): ModelEstimate[] {
  const axes = new Set(computedAxes(m, ctx.axisCtx));
  const prompts = new Map(
    suite.tests.map((t) => [t.id, estimateTokens({ messages: [{ content: t.prompt }] })]),
  );
  const self = { calls: 0, input: 0 };
  const embed = { calls: 0, input: 0 };
  for (const c of cells) {
    const cap = c.request.maxTokens ?? 0;
    const prompt = prompts.get(c.testId) ?? 0;
    if (axes.has('activation')) {
      self.calls++;
      self.input += settings.activationInput === 'prompt' ? prompt : cap;
    }
    if (settings.confidence === 'teacher-forced' && (axes.has('logprob') || axes.has('entropy'))) {
      self.calls++;
      self.input += prompt + cap;
    }
    if (axes.has('cosine')) {
      embed.calls++;
      embed.input += cap;
    }
    // A response of at most `cap` tokens has at most `cap` words.
    if (axes.has('bertscore')) {
      embed.calls += cap;
      embed.input += prefixTokens(cap, cap);
    }
  }
  const model = plannedModels(config).find((p) => p.label === m.label);
  const rows: ModelEstimate[] = [];
  if (model && self.calls > 0)
    rows.push(auxEstimate(model, { role: 'model', stage: AUX_STAGE, bound: true }, self.calls, self.input));
  if (ctx.embedder && embed.calls > 0)
    rows.push(
      auxEstimate(
        ctx.embedder,
        { role: 'embedder', stage: AUX_STAGE, bound: true },
        embed.calls,
        embed.input,
      ),
    );
  return rows;
}
