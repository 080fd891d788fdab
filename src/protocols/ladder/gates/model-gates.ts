import { z } from 'zod';
import type { WaverConfig } from '../../../config/schema.js';
import type { GenerateRequest } from '../../../models/types.js';
import { requestFor, roleParams } from '../../../run/plan.js';
import { runRole } from '../../../run/roles.js';
import type { RunSuiteOptions } from '../../../run/run-suite.js';
import type { SuiteTest } from '../../../run/types.js';
import { ladderFamily } from '../families/registry.js';
import { GATE_SUITES, MODEL_GATE_NAMES, type ModelGate } from '../suite-names.js';
import { type AnswerType, type Family, type GateVerdict, KB_TYPES, type KbType } from '../types.js';

/**
 * The model-based validity gates of the ladder paper (Sections 3.1 and 4.2), asked of the `judge`
 * role: NLI (the candidate must entail the original), the meaning judge (the family's meaning check)
 * and, for Knowledge Boundary, the epistemic judge. They fail closed: a call that errors or a reply
 * that cannot be read rejects the candidate, and the reason says so. Without a judge they are
 * recorded `not-run`. The prompts are waver's own words for what the paper describes;
 * see docs/ladder-suite.md#model-gates.
 */

/** The meta of a gate's judge test: which gate asked, about a candidate of which family (and boundary type). */
export const GateMetaSchema = z.object({
  gate: z.enum(MODEL_GATE_NAMES),
  family: z.string().min(1),
  kbType: z.enum(KB_TYPES).optional(),
});
export type GateMeta = z.infer<typeof GateMetaSchema>;
type GateTest = SuiteTest<GateMeta>;

/** A label needs a few tokens; a JSON verdict with a one-sentence reason needs more. */
export const GATE_MAX_TOKENS: Record<ModelGate, number> = { nli: 16, meaning: 256, epistemic: 256 };

/** One candidate to gate. */
export interface GateJob {
  /** Unique within a call (the generation key). */
  key: string;
  family: Family;
  original: string;
  candidate: string;
  /** KB: the boundary type the candidate is meant to cross. */
  kbType?: KbType;
  /** The seed's answer type (`number` when absent): the meaning and epistemic prompts are worded for it. */
  answerType?: AnswerType;
}

/** What the seed is, for the meaning judge, by answer type. */
const CHECKED: Record<AnswerType, string> = {
  number: 'You check perturbed math word problems for a robustness benchmark.',
  choice: 'You check perturbed multiple-choice questions for a robustness benchmark.',
  text: 'You check perturbed short factual questions for a robustness benchmark.',
};

/** What a choice or text candidate must keep besides its meaning (docs/ladder-suite.md#model-gates). */
const KEEPS: Record<Exclude<AnswerType, 'number'>, string> = {
  choice:
    'The options are part of the question: reject the CANDIDATE if an option was added, dropped or reworded, if an option lost its letter, or if a different option would now be the correct one. Options may be laid out differently as long as each keeps its own letter and text.',
  text: "Reject the CANDIDATE if it asks for something else, so that the ORIGINAL's correct answer would no longer be the correct answer.",
};

/**
 * A gate prompt's wording for a seed that is not math: the same criteria with facts for
 * quantities and the answer for the computation. Number seeds keep their wording, so their gate
 * requests (and cached verdicts) do not change.
 */
function wordedFor(text: string, type: AnswerType | undefined): string {
  if (type === undefined || type === 'number') return text;
  return text
    .replace(/every fact,\s+quantity and relationship/g, 'every fact and relationship')
    .replace(/every fact, quantity and the\s+question/g, 'every fact and the question')
    .replace(/solution steps, calculations or a worked-out value/g, 'reasoning or a worked-out answer')
    .replace(/reveals an intermediate or final result/g, 'reveals the answer')
    .replace(/if a number changed/g, 'if a fact changed')
    .replace(/a step of the\s+computation/g, 'a step towards it')
    .replace(/changes a quantity the ORIGINAL relies on/g, 'changes a fact the ORIGINAL relies on')
    .replace(
      /unrelated numbers about other things, related context that does not change the\s+computation/g,
      'unrelated facts and numbers about other things, related context that does not change the answer',
    )
    .replace(/leaves the computation as it is/g, 'leaves the answer as it is')
    .replace(/suggestions of a wrong operation/g, 'suggestions of a wrong answer or method')
    .replace(/leaving out a quantity the answer depends on/g, 'leaving out a fact the answer depends on');
}

const NO_JUDGE = 'no judge model configured (pass --judge SPEC to run it)';

// --- NLI -------------------------------------------------------------------------------------

const NLI_SYSTEM = [
  'You decide textual entailment between two texts.',
  'The PREMISE entails the HYPOTHESIS when everything the hypothesis states, and the question it asks, follows from the premise.',
  'Answer with exactly one lowercase word: entailment, neutral or contradiction. Write nothing else.',
].join('\n');

export function nliTest(job: GateJob): GateTest {
  return {
    id: job.key,
    system: NLI_SYSTEM,
    // Premise = candidate, hypothesis = original (docs/method.md): the rewrite must still say everything the original said.
    prompt: `PREMISE:\n${job.candidate}\n\nHYPOTHESIS:\n${job.original}\n\nLabel:`,
    meta: { gate: 'nli', family: job.family },
  };
}

const NLI_LABELS = new Set(['entailment', 'neutral', 'contradiction']);

/** Only the exact label `entailment` passes; "not entailment" or anything unreadable fails (closed). */
export function parseNliReply(reply: string): GateVerdict {
  const label = reply
    .trim()
    .replace(/^`+|`+$/g, '')
    .replace(/^["'\u201c]|["'\u201d]$/g, '')
    .replace(/[.!]$/, '')
    .trim()
    .toLowerCase();
  if (!NLI_LABELS.has(label))
    return { gate: 'nli', verdict: 'fail', reason: `unreadable NLI reply (fail closed): ${preview(reply)}` };
  if (label === 'entailment') return { gate: 'nli', verdict: 'pass', reason: 'NLI label: entailment' };
  return { gate: 'nli', verdict: 'fail', reason: `NLI label: ${label} (only entailment passes)` };
}

// --- meaning judge ---------------------------------------------------------------------------

const JUDGE_SYSTEM = [
  CHECKED.number,
  'Reply with one JSON object and nothing else: {"pass": true or false, "reason": "<one sentence>"}.',
].join('\n');

export function meaningTest(job: GateJob): GateTest {
  // The family's own criterion (families/<code>/gate.ts), with the reference judge's lists of what to
  // reject and what to accept: without them a judge rejects the very perturbations a family makes.
  const criterion = ladderFamily(job.family).meaning;
  if (!criterion) throw new Error(`the meaning judge does not apply to family ${job.family}`);
  return {
    id: job.key,
    system: JUDGE_SYSTEM.replace(CHECKED.number, CHECKED[job.answerType ?? 'number']),
    prompt: `${wordedFor(criterion, job.answerType)}${job.answerType && job.answerType !== 'number' ? ` ${KEEPS[job.answerType]}` : ''}\n\nORIGINAL:\n${job.original}\n\nCANDIDATE:\n${job.candidate}`,
    meta: { gate: 'meaning', family: job.family },
  };
}

export function parseMeaningReply(reply: string): GateVerdict {
  const json = jsonObjectIn(reply);
  if (!json || typeof json.pass !== 'boolean')
    return {
      gate: 'meaning',
      verdict: 'fail',
      reason: `unreadable meaning-judge reply (fail closed): ${preview(reply)}`,
    };
  const why = typeof json.reason === 'string' && json.reason.trim() ? json.reason.trim() : 'no reason given';
  return json.pass
    ? { gate: 'meaning', verdict: 'pass', reason: `meaning judge: kept — ${why}` }
    : { gate: 'meaning', verdict: 'fail', reason: `meaning judge: not kept — ${why}` };
}

// --- epistemic judge -------------------------------------------------------------------------

const EPISTEMIC_SYSTEM = [
  'You check questions written to be unanswerable, for a benchmark of whether models recognise the limits of what they can answer.',
  'Reply with one JSON object and nothing else: {"unanswerable": true or false, "coherent": true or false, "reason": "<one sentence>"}.',
].join('\n');

const BOUNDARY: Record<KbType, string> = {
  'missing-information': 'leaving out a quantity the answer depends on',
  'fabricated-evidence':
    'resting on evidence (a study, report or record) that is made up or cannot be checked',
  'not-yet-knowable': 'asking for a value that cannot be known yet',
  'fabricated-entity': 'depending on a person, place, product or thing that does not exist',
  'impossible-premise': 'resting on a premise that cannot be true',
};

export function epistemicTest(job: GateJob): GateTest {
  const how = job.kbType ? ` by ${wordedFor(BOUNDARY[job.kbType], job.answerType)}` : '';
  return {
    id: job.key,
    system: EPISTEMIC_SYSTEM,
    prompt:
      `The CANDIDATE is meant to be a version of the ORIGINAL that cannot be answered${how}.\n` +
      'unanswerable: true only if no definite answer can be justified from what the CANDIDATE says or from general knowledge.\n' +
      'coherent: true if the CANDIDATE is a readable, well-formed question. A premise that is impossible, fictional, ' +
      'contradictory or unverifiable is the point of the test and does not make it incoherent; only garbled, ' +
      'nonsensical text or a question unrelated to the ORIGINAL is incoherent.\n\n' +
      `ORIGINAL:\n${job.original}\n\nCANDIDATE:\n${job.candidate}`,
    meta: { gate: 'epistemic', family: job.family, ...(job.kbType && { kbType: job.kbType }) },
  };
}

export function parseEpistemicReply(reply: string): GateVerdict {
  const json = jsonObjectIn(reply);
  if (!json || typeof json.unanswerable !== 'boolean' || typeof json.coherent !== 'boolean')
    return {
      gate: 'epistemic',
      verdict: 'fail',
      reason: `unreadable epistemic-judge reply (fail closed): ${preview(reply)}`,
    };
  const why = typeof json.reason === 'string' && json.reason.trim() ? json.reason.trim() : 'no reason given';
  if (json.unanswerable && json.coherent)
    return {
      gate: 'epistemic',
      verdict: 'pass',
      reason: `epistemic judge: unanswerable and coherent — ${why}`,
    };
  const faults = [!json.unanswerable && 'answerable', !json.coherent && 'incoherent']
    .filter(Boolean)
    .join(' and ');
  return { gate: 'epistemic', verdict: 'fail', reason: `epistemic judge: ${faults} — ${why}` };
}

// --- running ---------------------------------------------------------------------------------

/** Each gate's judge test for a job. */
export const TEST_OF: Record<ModelGate, (job: GateJob) => GateTest> = {
  nli: nliTest,
  meaning: meaningTest,
  epistemic: epistemicTest,
};
const PARSE_OF: Record<ModelGate, (reply: string) => GateVerdict> = {
  nli: parseNliReply,
  meaning: parseMeaningReply,
  epistemic: parseEpistemicReply,
};

/** The exact request the judge receives for a gate (what a replay recording must hold). */
export function gateRequest(gate: ModelGate, job: GateJob): GenerateRequest {
  return requestFor(TEST_OF[gate](job), roleParams(0, GATE_MAX_TOKENS[gate]));
}

/**
 * Runs the family's model gates for each job, in order (NLI, then the meaning judge for those NLI
 * passed, then the epistemic judge), one suite per gate. Returns each job's verdicts; a job stops at
 * its first failed gate (later gates are not asked). Without a judge every gate is `not-run`.
 */
export async function runModelGates(
  config: WaverConfig,
  jobs: readonly GateJob[],
  opts: RunSuiteOptions = {},
): Promise<Map<string, GateVerdict[]>> {
  const out = new Map<string, GateVerdict[]>(jobs.map((j) => [j.key, []]));
  if (config.judge === undefined) {
    for (const job of jobs)
      for (const gate of ladderFamily(job.family).modelGates)
        out.get(job.key)?.push({ gate, verdict: 'not-run', reason: NO_JUDGE });
    return out;
  }
  const failed = new Set<string>();
  for (const gate of ['nli', 'meaning', 'epistemic'] as const) {
    const due = jobs.filter((j) => ladderFamily(j.family).modelGates.includes(gate) && !failed.has(j.key));
    if (due.length === 0) continue;
    const tests = due.map(TEST_OF[gate]);
    const { answers } = await runRole(
      config,
      'judge',
      GATE_SUITES[gate],
      [{ temperature: 0, maxTokens: GATE_MAX_TOKENS[gate], tests }],
      opts,
    );
    for (const job of due) {
      const answer = answers.get(job.key);
      const verdict: GateVerdict =
        answer?.ok === true
          ? PARSE_OF[gate](answer.text)
          : {
              gate,
              verdict: 'fail',
              reason: `judge call failed (fail closed): ${answer?.error ?? 'no answer'}`,
            };
      out.get(job.key)?.push(verdict);
      if (verdict.verdict !== 'pass') failed.add(job.key);
    }
  }
  return out;
}

/** The first JSON object in a reply (code fences and prose around it tolerated), or undefined. */
function jsonObjectIn(reply: string): Record<string, unknown> | undefined {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    const value: unknown = JSON.parse(reply.slice(start, end + 1));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `'${flat.length > 80 ? `${flat.slice(0, 80)}…` : flat}'`;
}
