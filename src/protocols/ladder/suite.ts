import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import type { RunSuiteOptions } from '../../run/run-suite.js';
import { deriveSeed, PyRandom } from '../../util/random.js';
import { rulesUnavailable, typedRules } from './answer-types/typed-rules.js';
import { type Candidate, type LadderFamily, rulesEmptyReason } from './families/contract.js';
import { modelCandidateText } from './families/instructions.js';
import { type GenerationJob, generateWithModel, generationKey } from './families/model-generator.js';
import { ladderFamilies, ladderFamily } from './families/registry.js';
import { answerGate } from './gates/answer-gate.js';
import { type GateJob, runModelGates } from './gates/model-gates.js';
import { structuralGate } from './gates/structural-gate.js';
import type { BandTablesInput } from './severity/band-tables.js';
import { BandTablesSchema } from './severity/levels.js';
import { measureSeverity } from './severity/measure.js';
import { ladderTestId } from './suite-file.js';
import {
  type AdmissionRow,
  type Family,
  type GateVerdict,
  type GeneratorInfo,
  type LadderTest,
  LEVELS,
  type Level,
  type Seed,
  type Severity,
  testAnswerOf,
} from './types.js';

/**
 * Builds the ladder suite (the paper's Section 4.2): for every seed, family and requested level,
 * up to `attempts` candidates from the family's generator, each through the structural gate, the
 * family's rules, severity binning and the model gates; the first candidate that passes every gate
 * that ran is admitted (an on-level one preferred), labelled by its MEASURED level. Plus one
 * baseline test per seed. See docs/ladder-suite.md#admission.
 */

export interface BuildLadderSuiteOptions {
  seeds: Seed[];
  config: WaverConfig;
  generator: 'rules' | 'model';
  families?: Family[];
  levels?: Level[];
  /** Candidates per (seed, family, requested level); docs/method.md: 2. */
  attempts?: number;
  /** The suite seed: every random choice derives from it. */
  seed: number;
  /** Families to use in place of the registered ones of the same code (a test's own). */
  modules?: readonly LadderFamily[];
  /** For the generator and judge runs (signal, progress, env). */
  runOptions?: RunSuiteOptions;
  /** One line per stage, for a command's progress output. */
  log?: (line: string) => void;
}

export interface LadderSuiteBuild {
  tests: LadderTest[];
  admission: AdmissionRow[];
}

/** One candidate and what became of it. */
interface Tried {
  attempt: number;
  candidate?: Candidate;
  generator: GeneratorInfo;
  gates: GateVerdict[];
  severity?: Severity;
  /** The gate that rejected it (the first that failed), or undefined when it passed every gate that ran. */
  rejectedBy?: string;
}

/** A (seed, family, requested level) cell of the ladder. */
interface Slot {
  seed: Seed;
  family: LadderFamily;
  level: Level;
  tried: Tried[];
}

const DEFAULT_ATTEMPTS = 2;

interface MeasureSettings {
  bands?: BandTablesInput;
  strictLoadBands: boolean;
  genericFallback: boolean;
  levelBy: 'content' | 'measure';
}

/** The build's options checked, with their defaults: bad input is an InputError before any call. */
function buildInputs(opts: BuildLadderSuiteOptions) {
  const familyOf = (code: Family): LadderFamily =>
    opts.modules?.find((m) => m.code === code) ?? ladderFamily(code);
  const families = checkFamilies(opts.families ?? ladderFamilies().map((f) => f.code)).map(familyOf);
  const levels = checkLevels(opts.levels ?? [...LEVELS]);
  const attempts = opts.attempts ?? DEFAULT_ATTEMPTS;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new InputError(`attempts must be a positive integer, got ${attempts}`, { field: 'attempts' });
  checkSeeds(opts.seeds);
  const measure = ladderMeasureOptions(opts.config);
  if (opts.generator === 'model' && opts.config.generator === undefined)
    throw new InputError('the model generator needs a generator model: pass --generator SPEC', {
      field: 'generator',
    });
  return { families, levels, attempts, measure, familyOf };
}

export async function buildLadderSuite(opts: BuildLadderSuiteOptions): Promise<LadderSuiteBuild> {
  const { families, levels, attempts, measure, familyOf } = buildInputs(opts);
  const log = opts.log ?? (() => {});

  const slots: Slot[] = [];
  // Families the rules do not write on a seed's answer type make no slot there (issue 36).
  const unavailable = new Map<LadderFamily, { seeds: number; reason: string }>();
  for (const seed of opts.seeds)
    for (const family of families) {
      const reason = opts.generator === 'rules' ? rulesUnavailable(family, seed) : undefined;
      if (reason !== undefined) {
        unavailable.set(family, { seeds: (unavailable.get(family)?.seeds ?? 0) + 1, reason });
        continue;
      }
      for (const level of levels) slots.push({ seed, family, level, tried: [] });
    }

  for (let attempt = 1; attempt <= attempts; attempt++) {
    const due = slots.filter((s) => needsAnotherAttempt(s));
    if (due.length === 0) break;
    log(`attempt ${attempt}: ${due.length} candidates to generate (${opts.generator} generator)`);
    const produced = await produceCandidates(due, attempt, opts, familyOf, measure);

    // Cheap, offline gates first; the judge sees only candidates that survive them.
    const survivors: { slot: Slot; tried: Tried }[] = [];
    for (const slot of due) {
      const tried = produced.get(slot) as Tried;
      slot.tried.push(tried);
      if (tried.rejectedBy !== undefined || !tried.candidate) continue;
      offlineGates(slot, tried, measure);
      if (tried.rejectedBy === undefined) survivors.push({ slot, tried });
    }

    const jobs = survivors.map(({ slot, tried }) => gateJob(slot, attempt, tried.candidate as Candidate));
    if (jobs.length > 0 && opts.config.judge !== undefined)
      log(`attempt ${attempt}: ${jobs.length} candidates to the judge`);
    const verdicts = await runModelGates(opts.config, jobs, opts.runOptions);
    for (const { slot, tried } of survivors) {
      for (const v of verdicts.get(keyOf(slot, attempt)) ?? []) {
        tried.gates.push(v);
        if (v.verdict === 'fail' && tried.rejectedBy === undefined) tried.rejectedBy = v.gate;
      }
    }
  }

  for (const seed of opts.seeds) dropDuplicates(slots.filter((s) => s.seed === seed));

  const tests: LadderTest[] = [];
  for (const seed of opts.seeds) {
    tests.push(baselineTest(seed));
    for (const slot of slots) {
      if (slot.seed !== seed) continue;
      const chosen = admitted(slot);
      if (chosen) tests.push(testOf(slot, chosen));
    }
  }
  return { tests, admission: admissionRows(slots, families, unavailable) };
}

/** Another attempt is made until a candidate passed every gate at the requested level. */
function needsAnotherAttempt(slot: Slot): boolean {
  return !slot.tried.some((t) => t.rejectedBy === undefined && t.severity?.level === slot.level);
}

/** The admitted candidate: the first on-level one that passed, else the first that passed. */
function admitted(slot: Slot): Tried | undefined {
  const passed = slot.tried.filter((t) => t.rejectedBy === undefined);
  return passed.find((t) => t.severity?.level === slot.level) ?? passed[0];
}

/**
 * One test per (seed, family, measured level) and no text twice for a seed
 * (docs/ladder-suite.md#admission): on-level admissions claim their cell first, then an off-level
 * one takes a cell still free, falling back to its slot's other passed candidates; a candidate
 * whose cell or text is taken is rejected at gate `duplicate`. Mutates the slots' `tried`.
 */
function dropDuplicates(seedSlots: readonly Slot[]): void {
  const cells = new Set<string>();
  const texts = new Set<string>();
  const onLevel = (s: Slot) => admitted(s)?.severity?.level === s.level;
  const ordered = [...seedSlots.filter(onLevel), ...seedSlots.filter((s) => !onLevel(s))];
  for (const slot of ordered) {
    for (let chosen = admitted(slot); chosen; chosen = admitted(slot)) {
      const cell = `${slot.family.code}/${chosen.severity?.level}`;
      const text = (chosen.candidate as Candidate).text;
      const clash = cells.has(cell)
        ? `the seed already has a ${slot.family.code} test measured L${chosen.severity?.level}`
        : texts.has(text)
          ? 'the seed already has a test with this text'
          : undefined;
      if (clash === undefined) {
        cells.add(cell);
        texts.add(text);
        break;
      }
      chosen.gates.push({ gate: 'duplicate', verdict: 'fail', reason: clash });
      chosen.rejectedBy = 'duplicate';
    }
  }
}

function keyOf(slot: Slot, attempt: number): string {
  return generationKey({ seed: slot.seed, family: slot.family.code, level: slot.level, attempt });
}

async function produceCandidates(
  due: readonly Slot[],
  attempt: number,
  opts: BuildLadderSuiteOptions,
  familyOf: (code: Family) => LadderFamily,
  measure: MeasureSettings,
): Promise<Map<Slot, Tried>> {
  const out = new Map<Slot, Tried>();
  if (opts.generator === 'rules') {
    for (const slot of due) out.set(slot, rulesCandidate(slot, attempt, opts.seed, measure));
    return out;
  }
  const jobs: GenerationJob[] = due.map((s) => ({
    seed: s.seed,
    family: s.family.code,
    level: s.level,
    attempt,
  }));
  // The families' instructions and items for each answer type (docs/ladder-families.md#answer-types).
  const outcomes = await generateWithModel(opts.config, familyOf, jobs, opts.runOptions);
  for (const slot of due) {
    const outcome = outcomes.get(keyOf(slot, attempt));
    if (outcome?.ok)
      out.set(slot, {
        attempt,
        candidate: {
          ...outcome.candidate,
          text: modelCandidateText(slot.family, slot.seed, outcome.candidate.text),
        },
        generator: outcome.candidate.generator,
        gates: [],
      });
    else
      out.set(slot, {
        attempt,
        generator: outcome?.generator ?? { kind: 'model', model: 'unknown', temperature: 0, attempt },
        gates: [{ gate: 'generator', verdict: 'fail', reason: outcome?.reason ?? 'no generation' }],
        rejectedBy: 'generator',
      });
  }
  return out;
}

/** The rules generator's candidate for a slot at an attempt: the same whenever it is made. */
function rulesCandidate(slot: Slot, attempt: number, suiteSeed: number, measure: MeasureSettings): Tried {
  // One seeded generator per (suite seed, item, family, level, attempt): docs/method.md#determinism.
  const rngSeed = deriveSeed(suiteSeed, slot.seed.id, slot.family.code, slot.level, attempt);
  // The rules aim at the bands the candidate will be binned by.
  // Each family on the seed's answer type (docs/ladder-families.md#answer-types).
  const typed = typedRules(slot.family, slot.seed, slot.level, attempt, new PyRandom(rngSeed), {
    ...measure,
    rngSeed,
  });
  const candidate = typed?.candidate;
  const generator: GeneratorInfo = candidate?.generator ?? {
    kind: 'rules',
    name: slot.family.code,
    seed: rngSeed,
    attempt,
  };
  if (!candidate)
    return {
      attempt,
      generator,
      // Where the family says which seeds its rules write the level on, that is the reason (issue 36).
      gates: [{ gate: 'generator', verdict: 'fail', reason: rulesEmptyReason(slot.family, slot.level) }],
      rejectedBy: 'generator',
    };
  return {
    attempt,
    candidate,
    generator,
    gates: [],
  };
}

/** What building a suite may ask the models, at most: see buildAsksBound. */
export interface LadderBuildAsks {
  /** The model generator's jobs: every (seed, family, requested level, attempt). */
  generator: GenerationJob[];
  /** The judge's: every candidate that can pass the offline gates, at every attempt. */
  gates: GateJob[];
  /** Per (seed, family, requested level) that can admit a test, the test its first such candidate makes. */
  admissible: LadderTest[];
}

/**
 * What building the suite may ask the generator and the judge, at most, found with no call (a dry
 * run, docs/decisions.md E39). A slot is asked again only while no candidate of it passed, so every
 * attempt of every slot bounds the generator's jobs; the rules' candidate of an attempt is the same
 * whenever it is made, so the judge is asked at most about those that pass the offline gates. A
 * model generator's text is not known: the seed's question stands in for it (its prompt tokens).
 */
export function buildAsksBound(opts: BuildLadderSuiteOptions): LadderBuildAsks {
  const { families, levels, attempts, measure } = buildInputs(opts);
  const asks: LadderBuildAsks = { generator: [], gates: [], admissible: [] };
  for (const seed of opts.seeds)
    for (const family of families)
      for (const level of levels) {
        const slot: Slot = { seed, family, level, tried: [] };
        let first: Tried | undefined;
        for (let attempt = 1; attempt <= attempts; attempt++) {
          const tried =
            opts.generator === 'rules'
              ? rulesCandidate(slot, attempt, opts.seed, measure)
              : standIn(slot, attempt, asks.generator);
          if (!tried.candidate) continue;
          if (opts.generator === 'rules') offlineGates(slot, tried, measure);
          if (tried.rejectedBy !== undefined) continue;
          asks.gates.push(gateJob(slot, attempt, tried.candidate));
          first ??= tried;
        }
        if (first) asks.admissible.push(testOf(slot, first));
      }
  return asks;
}

/** A model generator's job, its candidate the seed's question (its text is not known before the call). */
function standIn(slot: Slot, attempt: number, jobs: GenerationJob[]): Tried {
  jobs.push({ seed: slot.seed, family: slot.family.code, level: slot.level, attempt });
  const generator: GeneratorInfo = { kind: 'model', model: 'not called', temperature: 0, attempt };
  // A family whose level is a category (KB's boundary type): the one the generator is asked for (model-generator.ts).
  const kbType = slot.family.boundaryType?.(slot.level);
  return {
    attempt,
    candidate: { text: slot.seed.question, generator, ...(kbType && { kbType }) },
    generator,
    gates: [],
  };
}

function gateJob(slot: Slot, attempt: number, candidate: Candidate): GateJob {
  return {
    key: keyOf(slot, attempt),
    family: slot.family.code,
    original: slot.seed.question,
    candidate: candidate.text,
    ...(candidate.kbType && { kbType: candidate.kbType }),
    ...(slot.seed.answerType !== undefined && { answerType: slot.seed.answerType }),
  };
}

/**
 * The structural gate (for a family that keeps the numbers: every one but KB), the answer gate,
 * the family's own rules, then severity binning.
 */
function offlineGates(slot: Slot, tried: Tried, measure: MeasureSettings): void {
  const { family } = slot;
  const original = slot.seed.question;
  const text = (tried.candidate as Candidate).text;
  const add = (v: GateVerdict): boolean => {
    tried.gates.push(v);
    if (v.verdict === 'fail') tried.rejectedBy = v.gate;
    return v.verdict !== 'fail';
  };
  // KB changes the quantities on purpose (docs/method.md: the numeric gate is for every family but KB).
  if (family.preserves.numbers && !add(structuralGate(original, text))) return;
  // What a choice or text seed's answer needs kept (docs/ladder-families.md#answer-types); none for numbers.
  const kept = answerGate(slot.seed, family.preserves, text);
  if (kept && !add(kept)) return;
  if (!add(family.familyGate(original, text, slot.level))) return;
  const severity = measureSeverity(family, original, text, {
    ...(measure.bands && { bands: measure.bands }),
    strictLoadBands: measure.strictLoadBands,
    genericFallback: measure.genericFallback,
    levelBy: measure.levelBy,
    ...(tried.candidate?.kbType && { kbType: tried.candidate.kbType }),
  });
  tried.severity = severity;
  add(
    severity.level === undefined
      ? {
          gate: 'level',
          verdict: 'fail',
          reason:
            severity.via === 'content'
              ? `its content has no ${family.code} level`
              : `score ${severity.score} is outside every ${family.code} band`,
        }
      : severity.via === 'content' && severity.level !== slot.level
        ? // A level read off the content is admitted only where it was asked (issue 36).
          {
            gate: 'level',
            verdict: 'fail',
            reason: `its content is L${severity.level}, asked L${slot.level}`,
          }
        : {
            gate: 'level',
            verdict: 'pass',
            reason: `measured L${severity.level} (requested L${slot.level}) by ${severity.via}, score ${severity.score}`,
          },
  );
}

function testOf(slot: Slot, t: Tried): LadderTest {
  const candidate = t.candidate as Candidate;
  const base = {
    seedId: slot.seed.id,
    family: slot.family.code,
    requestedLevel: slot.level,
    text: candidate.text,
  } as const;
  const subtype = candidate.subtype ?? candidate.kbType;
  return {
    id: ladderTestId(base),
    ...base,
    ...(subtype !== undefined && { subtype }),
    measuredLevel: t.severity?.level,
    ...(t.severity && { severity: t.severity }),
    original: slot.seed.question,
    ...testAnswerOf(slot.seed, !slot.family.preserves.answer),
    gates: t.gates,
    generator: t.generator,
    ...(slot.seed.dataset && { dataset: slot.seed.dataset }),
  };
}

/** A seed asked as it is: its baseline test. */
export function baselineTest(seed: Seed): LadderTest {
  const base = { seedId: seed.id, family: 'baseline', requestedLevel: 0, text: seed.question } as const;
  return {
    id: ladderTestId(base),
    ...base,
    measuredLevel: 0,
    original: seed.question,
    ...testAnswerOf(seed, false),
    gates: [],
    ...(seed.dataset && { dataset: seed.dataset }),
  };
}

/** The paper's Table 3, per family: candidates, admitted, rejections by the first gate that failed. */
function admissionRows(
  slots: readonly Slot[],
  families: readonly LadderFamily[],
  unavailable: ReadonlyMap<LadderFamily, { seeds: number; reason: string }>,
): AdmissionRow[] {
  return families.map((family) => {
    const none = unavailable.get(family);
    const row: AdmissionRow = {
      ...(none && { unavailable: none }),
      family: family.code,
      candidates: 0,
      admitted: 0,
      rejectedByGate: {},
      admittedByLevel: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
      offLevel: 0,
      superseded: 0,
    };
    for (const slot of slots) {
      if (slot.family !== family) continue;
      const chosen = admitted(slot);
      for (const t of slot.tried) {
        row.candidates++;
        if (t.rejectedBy !== undefined)
          row.rejectedByGate[t.rejectedBy] = (row.rejectedByGate[t.rejectedBy] ?? 0) + 1;
        else if (t !== chosen) row.superseded = (row.superseded ?? 0) + 1;
      }
      if (chosen) {
        row.admitted++;
        const level = chosen.severity?.level;
        if (level !== undefined)
          row.admittedByLevel[String(level)] = (row.admittedByLevel[String(level)] ?? 0) + 1;
        if (level !== slot.level) row.offLevel++;
      }
    }
    return row;
  });
}

// --- input checks ------------------------------------------------------------------------------

function checkFamilies(families: readonly Family[]): Family[] {
  if (families.length === 0) throw new InputError('no family to build', { field: 'families' });
  for (const f of families) ladderFamily(f);
  // The registry's order and no repeats, so the suite does not depend on how the list was written.
  return ladderFamilies()
    .map((f) => f.code)
    .filter((f) => families.includes(f));
}

function checkLevels(levels: readonly number[]): Level[] {
  if (levels.length === 0) throw new InputError('no level to build', { field: 'levels' });
  for (const l of levels)
    if (!(LEVELS as readonly number[]).includes(l))
      throw new InputError(`unknown level '${l}' (expected some of ${LEVELS.join(', ')})`, {
        field: 'levels',
      });
  return LEVELS.filter((l) => levels.includes(l));
}

function checkSeeds(seeds: readonly Seed[]): void {
  if (seeds.length === 0)
    throw new InputError('no seed problems to build a suite from', { field: 'dataset' });
  const seen = new Set<string>();
  for (const s of seeds) {
    if (seen.has(s.id)) throw new InputError(`seed id '${s.id}' appears twice`, { field: 'dataset' });
    seen.add(s.id);
  }
}

/**
 * The config's band tables (validated here too: a library caller may pass an unchecked object) and
 * binning settings: the paper's CL bands and no generic fallback, or with `reference: true` the
 * reference code's side of both (docs/fidelity.md#ladder).
 */
function ladderMeasureOptions(config: WaverConfig): MeasureSettings {
  const ladder = config.ladder as
    | {
        bands?: unknown;
        strictLoadBands?: boolean;
        genericFallback?: boolean;
        levelBy?: 'content' | 'measure';
        reference?: boolean;
      }
    | undefined;
  const reference = ladder?.reference ?? false;
  const settings = {
    strictLoadBands: ladder?.strictLoadBands ?? !reference,
    genericFallback: ladder?.genericFallback ?? reference,
    levelBy: ladder?.levelBy ?? (reference ? 'measure' : 'content'),
  } as const;
  if (ladder?.bands === undefined) return settings;
  const parsed = BandTablesSchema.safeParse(ladder.bands);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['ladder', 'bands', ...(issue?.path ?? []).map(String)].join('.');
    throw new InputError(issue?.message ?? 'invalid band table', { field });
  }
  return { bands: parsed.data, ...settings };
}

/** Per family x requested level: seeds whose admitted test measured at the requested level (the fill table). */
export function fillCounts(tests: readonly LadderTest[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tests) {
    if (t.family === 'baseline' || t.measuredLevel !== t.requestedLevel) continue;
    const key = `${t.family}/L${t.requestedLevel}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}
