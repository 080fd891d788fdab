import type { WaverConfig } from '../../../config/schema.js';
import type { GenerateRequest } from '../../../models/types.js';
import { requestFor, roleParams } from '../../../run/plan.js';
import { type RoleBatch, runRole } from '../../../run/roles.js';
import type { RunSuiteOptions } from '../../../run/run-suite.js';
import type { SuiteTest } from '../../../run/types.js';
import { GENERATOR_SUITE } from '../suite-names.js';
import type { Family, GeneratorInfo, Level, Seed } from '../types.js';
import type { Candidate, LadderFamily } from './contract.js';
import { modelInstructions } from './instructions.js';

/**
 * The `model` generator: a generator model rewrites the seed question under the family's
 * instructions for the requested level, or, for an append-only family (Context Interference),
 * writes only the addition that the builder appends to the verbatim question
 * (see docs/ladder-suite.md#model-generator).
 */

/** Room for the longest rewrite (Context Load at L5 more than doubles a question). */
export const GENERATOR_MAX_TOKENS = 1024;

/** One generation: a (seed, family, requested level, attempt). */
export interface GenerationJob {
  seed: Seed;
  family: Family;
  level: Level;
  /** 1-based. */
  attempt: number;
}

export type GenerationOutcome =
  | { ok: true; candidate: Candidate }
  | { ok: false; reason: string; generator: GeneratorInfo };

/** The key of a job in the generator suite (its test id). */
export function generationKey(job: GenerationJob): string {
  return `${job.seed.id}/${job.family}/L${job.level}/a${job.attempt}`;
}

/**
 * The generator suite's test for a job, and the temperature it is sent at: the family's for the
 * level plus 0.10 per retry, at most 0.95 (docs/method.md), rounded to 2 decimals so 0.2 + 0.1 is
 * 0.3, not 0.30000000000000004, in the request that is stored and hashed.
 */
export function generatorTest(
  family: LadderFamily,
  job: GenerationJob,
): { test: SuiteTest; temperature: number; append: boolean } {
  const instructions = modelInstructions(family, job.seed, job.level, job.attempt);
  return {
    test: {
      id: generationKey(job),
      system: instructions.system,
      prompt: instructions.user,
      meta: { seedId: job.seed.id, family: job.family, level: job.level, attempt: job.attempt },
    },
    temperature: instructions.temperature,
    append: instructions.output === 'append',
  };
}

/** The exact request the generator model receives for a job (what a replay recording must hold). */
export function generatorRequest(family: LadderFamily, job: GenerationJob): GenerateRequest {
  const { test, temperature } = generatorTest(family, job);
  return requestFor(test, roleParams(temperature, GENERATOR_MAX_TOKENS));
}

const FENCE = /^```[^\n`]*\n([\s\S]*?)\n?```$/;
const MARKER = /^\s*\[QUESTION\]\s*:?\s*/i;
const QUOTES: [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ['\u201c', '\u201d'],
  ['\u2018', '\u2019'],
];

/**
 * The candidate text in a generator's reply: a reply wrapped in one code fence is unwrapped (except
 * for a family whose layout is the perturbation, Structural/Format, where a fence can be the
 * perturbation itself), a leading `[QUESTION]` marker and quotes around the whole text are removed.
 * An empty result is no candidate.
 */
export function parseGeneratorReply(
  reply: string,
  family: Pick<LadderFamily, 'writes'>,
): { ok: true; text: string } | { ok: false; reason: string } {
  const layout = family.writes === 'layout';
  let text = reply.trim();
  if (!layout) {
    const fenced = FENCE.exec(text);
    if (fenced) text = (fenced[1] ?? '').trim();
  }
  text = text.replace(MARKER, '');
  for (const [open, close] of QUOTES) {
    if (
      text.length >= 2 &&
      text.startsWith(open) &&
      text.endsWith(close) &&
      !text.slice(1, -1).includes(open)
    ) {
      text = text.slice(1, -1).trim();
      break;
    }
  }
  // A layout is kept; elsewhere only the ends are trimmed, inner newlines are the model's.
  text = layout ? text.replace(/^\n+|\s+$/g, '') : text.trim();
  if (text === '')
    return { ok: false, reason: `the generator's reply is empty after cleaning (reply: ${preview(reply)})` };
  return { ok: true, text };
}

/** The jobs' generator tests, one batch per temperature (what the run sends, and a dry run estimates). */
export function generationBatches(familyOf: (code: Family) => LadderFamily, jobs: readonly GenerationJob[]) {
  const byTemperature = new Map<number, RoleBatch>();
  const temperatures = new Map<string, number>();
  const appended = new Set<string>();
  for (const job of jobs) {
    const { test, temperature, append } = generatorTest(familyOf(job.family), job);
    temperatures.set(test.id, temperature);
    if (append) appended.add(test.id);
    let batch = byTemperature.get(temperature);
    if (!batch) {
      batch = { temperature, maxTokens: GENERATOR_MAX_TOKENS, tests: [] };
      byTemperature.set(temperature, batch);
    }
    batch.tests.push(test);
  }
  // Ascending temperature, so the order of suites in the store does not depend on job order.
  const batches = [...byTemperature.values()].sort((a, b) => a.temperature - b.temperature);
  return { batches, temperatures, appended };
}

/**
 * Generates candidates for the jobs with the config's generator model, one `ladder/generator`
 * suite per temperature. A failed call or an empty reply is an outcome with its reason, not an exception.
 */
export async function generateWithModel(
  config: WaverConfig,
  familyOf: (code: Family) => LadderFamily,
  jobs: readonly GenerationJob[],
  opts: RunSuiteOptions = {},
): Promise<Map<string, GenerationOutcome>> {
  const { batches, temperatures, appended } = generationBatches(familyOf, jobs);
  const { identity, answers } = await runRole(config, 'generator', GENERATOR_SUITE, batches, opts);

  const out = new Map<string, GenerationOutcome>();
  for (const job of jobs) {
    const key = generationKey(job);
    const generator: GeneratorInfo = {
      kind: 'model',
      model: identity,
      temperature: temperatures.get(key) as number,
      attempt: job.attempt,
    };
    const answer = answers.get(key) ?? { ok: false, error: 'no answer' };
    if (!answer.ok) {
      out.set(key, { ok: false, reason: `the generator call failed: ${answer.error}`, generator });
      continue;
    }
    const family = familyOf(job.family);
    const parsed = parseGeneratorReply(answer.text, family);
    if (!parsed.ok) {
      out.set(key, { ok: false, reason: parsed.reason, generator });
      continue;
    }
    // An append-only family's reply is the addition alone: the original is kept verbatim before it.
    const text = appended.has(key) ? `${job.seed.question}\n${parsed.text}` : parsed.text;
    const candidate: Candidate = { text, generator };
    // A family whose level is a category (KB's boundary type): the one the generator was asked for.
    const kbType = family.boundaryType?.(job.level);
    if (kbType !== undefined) candidate.kbType = kbType;
    out.set(key, { ok: true, candidate });
  }
  return out;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `'${flat.length > 60 ? `${flat.slice(0, 60)}…` : flat}'`;
}
