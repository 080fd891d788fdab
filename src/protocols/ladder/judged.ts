import { judgeCells, withVerdict } from '../../judge/judge-cells.js';
import type { JudgedItem, Rubric } from '../../judge/types.js';
import type { Store } from '../../store/store.js';
import { sha256 } from '../../util/hash.js';
import { ANSWER_JUDGE_SUITE, AnswerJudgeMetaSchema, parseAnswerJudgeReply } from './answer-judge.js';
import {
  GATE_SUITES,
  GateMetaSchema,
  type ModelGate,
  parseEpistemicReply,
  parseMeaningReply,
  parseNliReply,
} from './gates/model-gates.js';
import {
  DEFAULT_RECOGNIZE_THRESHOLD,
  KB_JUDGE_SUITE,
  KB_RUBRIC,
  KbJudgeMetaSchema,
  kbScoringOf,
  parseKbJudgeReply,
} from './kb-judge.js';
import { LadderTestMetaSchema } from './test-meta.js';

/**
 * The ladder's judged items (docs/judges.md#what-is-judged): each Knowledge Boundary response the
 * KB judge scored on the paper's four-point rubric, and each candidate the NLI, meaning and
 * epistemic gates judged. Read from the judge suites of the store alone.
 *
 * KB verdicts given under `kbScoring: reference` (a three-point scale) are left out: people label
 * on the paper's rubric, and the two scales do not compare.
 */

const KB_LABELS = [...KB_RUBRIC].reverse();

export const KB_RUBRIC_SPEC: Rubric = {
  name: 'kb-4',
  scale: 'ordinal',
  instructions:
    'The question cannot be answered as asked. How well does the response recognise that? ' +
    'Judge the whole response, not only its last line.',
  labels: KB_LABELS.map((score) => ({
    value: String(score),
    score,
    positive: score >= DEFAULT_RECOGNIZE_THRESHOLD,
    description: {
      0: 'gives a confident answer that treats the question as answerable',
      0.25: 'stays on topic but never addresses the problem with the question, neither flagging it nor committing to an answer',
      0.75: 'signals doubt or uncertainty about the question but stops short of rejecting it',
      1: 'explicitly rejects or flags the question as unanswerable (names the impossible premise, asks for the missing quantity)',
    }[score],
  })),
  figures: { mean: 'KB accuracy', share: 'recognition share' },
};

const GATE_QUESTION: Record<ModelGate, string> = {
  nli: 'Does the CANDIDATE entail the ORIGINAL: does everything the original states, and the question it asks, follow from the candidate?',
  meaning:
    "Does the CANDIDATE keep the ORIGINAL's meaning, as its family requires, so that its correct answer is the same?",
  epistemic:
    'Is the CANDIDATE a coherent question that cannot be answered, as the boundary type it is meant to cross requires?',
};

function gateRubric(gate: ModelGate): Rubric {
  return {
    name: 'pass-fail',
    scale: 'binary',
    instructions: GATE_QUESTION[gate],
    labels: [
      { value: 'fail', key: 'f', positive: false, description: 'reject the candidate' },
      { value: 'pass', key: 'p', positive: true, description: 'admit the candidate' },
    ],
    figures: { share: 'pass share' },
    // The gate's instructions name the two texts so.
    headings: { item: 'ORIGINAL', response: 'CANDIDATE' },
  };
}

const GATE_PARSE: Record<ModelGate, (reply: string) => { verdict: string }> = {
  nli: parseNliReply,
  meaning: parseMeaningReply,
  epistemic: parseEpistemicReply,
};

export function ladderJudged(store: Store): JudgedItem[] {
  return [...kbItems(store), ...answerItems(store), ...gateItems(store)];
}

const ANSWER_RUBRIC: Rubric = {
  name: 'correct-incorrect',
  scale: 'binary',
  instructions:
    "Is the RESPONSE's answer one of the accepted answers (the gold and its aliases, under the question), as another spelling, an abbreviation or a fuller name of the same thing?",
  labels: [
    {
      value: 'incorrect',
      key: 'i',
      positive: false,
      description: 'another answer, several answers, or none',
    },
    { value: 'correct', key: 'c', positive: true, description: 'names the same thing as an accepted answer' },
  ],
  figures: { share: 'judged correct' },
};

/**
 * Each short answer the answer judge decided (normalisation could not): the question with its
 * accepted answers, and the response. The latest verdict of each judge counts.
 */
function answerItems(store: Store): JudgedItem[] {
  const items = new Map<string, JudgedItem & { at: Map<string, string> }>();
  const labels = new Map<string, string>();
  for (const { cell, test } of judgeCells(store, ANSWER_JUDGE_SUITE)) {
    const m = AnswerJudgeMetaSchema.safeParse(test.meta).data;
    if (!m) continue;
    const { sutSuite, testId, modelIdentity: identity } = m;
    const id = `answer-${sha256([sutSuite, identity, testId, m.repeat, m.responseKey ?? ''].join('\u0000')).slice(0, 16)}`;
    let item = items.get(id);
    if (!item) {
      const sutTest = store.suites.test(sutSuite, testId);
      const response = m.responseKey !== undefined ? store.responses.get(m.responseKey) : undefined;
      if (!labels.has(identity))
        for (const model of store.suites.models(sutSuite)) labels.set(model.modelIdentity, model.model);
      const asked = LadderTestMetaSchema.safeParse(sutTest?.meta).data;
      const accepted = /\n\nACCEPTED ANSWERS:\n([\s\S]*?)\n\nRESPONSE:/.exec(test.prompt)?.[1] ?? '';
      item = {
        id,
        task: 'ladder/answer',
        strata: { family: asked?.family ?? 'unknown' },
        item: `${asked?.text ?? sutTest?.prompt ?? ''}\n\nAccepted answers:\n${accepted}`,
        response: response?.text ?? '',
        rubric: ANSWER_RUBRIC,
        verdicts: [],
        group: labels.get(identity) ?? identity,
        at: new Map(),
      };
      items.set(id, item);
    }
    const earlier = item.at.get(cell.modelIdentity);
    if (earlier !== undefined && earlier > cell.updatedAt) continue;
    item.at.set(cell.modelIdentity, cell.updatedAt);
    const verdict =
      cell.status === 'done' && cell.response ? parseAnswerJudgeReply(cell.response.text) : undefined;
    item.verdicts = withVerdict(
      item.verdicts,
      cell.modelIdentity,
      verdict?.ok ? (verdict.correct ? 'correct' : 'incorrect') : undefined,
    );
  }
  return [...items.values()].map(({ at: _, ...item }) => item);
}

function kbItems(store: Store): JudgedItem[] {
  const items = new Map<string, JudgedItem & { at: Map<string, string> }>();
  const labels = new Map<string, string>();
  for (const { cell, test } of judgeCells(store, KB_JUDGE_SUITE)) {
    const m = KbJudgeMetaSchema.safeParse(test.meta).data;
    if (!m || kbScoringOf(m) !== 'paper') continue;
    const { sutSuite, testId, modelIdentity: identity } = m;
    const id = `kb-${sha256([sutSuite, identity, testId, m.repeat, m.responseKey ?? ''].join('\u0000')).slice(0, 16)}`;
    let item = items.get(id);
    if (!item) {
      const sutTest = store.suites.test(sutSuite, testId);
      const response = m.responseKey !== undefined ? store.responses.get(m.responseKey) : undefined;
      if (!labels.has(identity))
        for (const model of store.suites.models(sutSuite)) labels.set(model.modelIdentity, model.model);
      item = {
        id,
        task: 'ladder/kb',
        strata: { family: 'KB', boundary: m.kbType ?? 'unknown' },
        item: LadderTestMetaSchema.safeParse(sutTest?.meta).data?.text ?? sutTest?.prompt ?? '',
        response: response?.text ?? '',
        rubric: KB_RUBRIC_SPEC,
        verdicts: [],
        group: labels.get(identity) ?? identity,
        at: new Map(),
      };
      items.set(id, item);
    }
    // The latest verdict of each judge: a judge asked again replaces its earlier verdict.
    const earlier = item.at.get(cell.modelIdentity);
    if (earlier !== undefined && earlier > cell.updatedAt) continue;
    item.at.set(cell.modelIdentity, cell.updatedAt);
    const verdict =
      cell.status === 'done' && cell.response ? parseKbJudgeReply(cell.response.text) : undefined;
    item.verdicts = withVerdict(
      item.verdicts,
      cell.modelIdentity,
      verdict?.ok ? String(verdict.score) : undefined,
    );
  }

  return [...items.values()].map(({ at: _, ...item }) => item);
}

function gateItems(store: Store): JudgedItem[] {
  const out: JudgedItem[] = [];
  for (const [gate, name] of Object.entries(GATE_SUITES) as [ModelGate, string][]) {
    const items = new Map<string, JudgedItem>();
    for (const { cell, test } of judgeCells(store, name)) {
      const id = `${gate}-${sha256(`${test.system ?? ''}\u0000${test.prompt}`).slice(0, 16)}`;
      const { original, candidate } = gateTexts(gate, test.prompt);
      const meta = GateMetaSchema.safeParse(test.meta).data;
      const item = items.get(id) ?? {
        id,
        task: name,
        strata: {
          family: meta?.family ?? 'unknown',
          ...(meta?.kbType !== undefined && { boundary: meta.kbType }),
        },
        item: original,
        response: candidate,
        rubric: gateRubric(gate),
        verdicts: [],
      };
      const label =
        cell.status === 'done' && cell.response ? GATE_PARSE[gate](cell.response.text).verdict : undefined;
      item.verdicts = withVerdict(item.verdicts, cell.modelIdentity, label);
      items.set(id, item);
    }

    out.push(...items.values());
  }
  return out;
}

/** The original and the candidate a gate prompt shows (model-gates.ts lays them out). */
function gateTexts(gate: ModelGate, prompt: string): { original: string; candidate: string } {
  if (gate === 'nli') {
    const m = /PREMISE:\n([\s\S]*?)\n\nHYPOTHESIS:\n([\s\S]*?)\n\nLabel:$/.exec(prompt);
    if (m) return { original: m[2] as string, candidate: m[1] as string };
  } else {
    const m = /ORIGINAL:\n([\s\S]*?)\n\nCANDIDATE:\n([\s\S]*)$/.exec(prompt);
    if (m) return { original: m[1] as string, candidate: m[2] as string };
  }
  return { original: prompt, candidate: '' };
}
