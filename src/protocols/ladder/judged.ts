import { judgeCells, withVerdict } from '../../judge/judge-cells.js';
import type { JudgedItem, Rubric } from '../../judge/types.js';
import type { Store } from '../../store/store.js';
import { sha256 } from '../../util/hash.js';
import { AnswerJudgeMetaSchema, parseAnswerJudgeReply } from './answer-judge.js';
import {
  GateMetaSchema,
  parseEpistemicReply,
  parseMeaningReply,
  parseNliReply,
} from './gates/model-gates.js';
import { type JudgedCell, KB_RUBRIC, KbJudgeMetaSchema, kbScoringOf, parseKbJudgeReply } from './kb-judge.js';
import { DEFAULT_RECOGNIZE_THRESHOLD } from './kb-judge-defaults.js';
import { ANSWER_JUDGE_SUITE, GATE_SUITES, KB_JUDGE_SUITE, type ModelGate } from './suite-names.js';
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

/** What one judge of SUT cells (the KB judge, the answer judge) contributes to its judged items. */
interface CellJudge<M extends JudgedCell> {
  suite: string;
  /** Prefix of the item ids, so the two judges' items never share one. */
  idPrefix: string;
  /** The judge test's meta, or undefined to leave the verdict out. */
  metaOf: (meta: unknown) => M | undefined;
  /** The item's task, strata, text and rubric, from the judged SUT test and the judge test's prompt. */
  itemOf: (
    m: M,
    asked: ReturnType<Store['suites']['test']>,
    judgePrompt: string,
  ) => Pick<JudgedItem, 'task' | 'strata' | 'item' | 'rubric'>;
  /** The label a judge's reply gives, or undefined where it gives none. */
  verdictOf: (reply: string) => string | undefined;
}

/**
 * One item per judged SUT response (its suite, model, test, repeat and stored response), with the
 * latest verdict of each judge: a judge asked again replaces its earlier verdict.
 */
function cellJudgeItems<M extends JudgedCell>(store: Store, judge: CellJudge<M>): JudgedItem[] {
  const items = new Map<string, JudgedItem & { at: Map<string, string> }>();
  const labels = new Map<string, string>();
  for (const { cell, test } of judgeCells(store, judge.suite)) {
    const m = judge.metaOf(test.meta);
    if (!m) continue;
    const { sutSuite, testId, modelIdentity: identity } = m;
    const id = `${judge.idPrefix}-${sha256([sutSuite, identity, testId, m.repeat, m.responseKey ?? ''].join('\u0000')).slice(0, 16)}`;
    let item = items.get(id);
    if (!item) {
      const response = m.responseKey !== undefined ? store.responses.get(m.responseKey) : undefined;
      if (!labels.has(identity))
        for (const model of store.suites.models(sutSuite)) labels.set(model.modelIdentity, model.model);
      const about = judge.itemOf(m, store.suites.test(sutSuite, testId), test.prompt);
      item = {
        id,
        task: about.task,
        strata: about.strata,
        item: about.item,
        response: response?.text ?? '',
        rubric: about.rubric,
        verdicts: [],
        group: labels.get(identity) ?? identity,
        at: new Map(),
      };
      items.set(id, item);
    }
    const earlier = item.at.get(cell.modelIdentity);
    if (earlier !== undefined && earlier > cell.updatedAt) continue;
    item.at.set(cell.modelIdentity, cell.updatedAt);
    const label = cell.status === 'done' && cell.response ? judge.verdictOf(cell.response.text) : undefined;
    item.verdicts = withVerdict(item.verdicts, cell.modelIdentity, label);
  }
  return [...items.values()].map(({ at: _, ...item }) => item);
}

/**
 * Each short answer the answer judge decided (normalisation could not): the question with its
 * accepted answers, and the response.
 */
function answerItems(store: Store): JudgedItem[] {
  return cellJudgeItems(store, {
    suite: ANSWER_JUDGE_SUITE,
    idPrefix: 'answer',
    metaOf: (meta) => AnswerJudgeMetaSchema.safeParse(meta).data,
    itemOf: (_m, sutTest, judgePrompt) => {
      const asked = LadderTestMetaSchema.safeParse(sutTest?.meta).data;
      const accepted = /\n\nACCEPTED ANSWERS:\n([\s\S]*?)\n\nRESPONSE:/.exec(judgePrompt)?.[1] ?? '';
      return {
        task: 'ladder/answer',
        strata: { family: asked?.family ?? 'unknown' },
        item: `${asked?.text ?? sutTest?.prompt ?? ''}\n\nAccepted answers:\n${accepted}`,
        rubric: ANSWER_RUBRIC,
      };
    },
    verdictOf: (reply) => {
      const verdict = parseAnswerJudgeReply(reply);
      return verdict.ok ? (verdict.correct ? 'correct' : 'incorrect') : undefined;
    },
  });
}

/** Each response of a family that keeps no answer (KB's) the KB judge scored on the paper's rubric. */
function kbItems(store: Store): JudgedItem[] {
  return cellJudgeItems(store, {
    suite: KB_JUDGE_SUITE,
    idPrefix: 'kb',
    metaOf: (meta) => {
      const m = KbJudgeMetaSchema.safeParse(meta).data;
      return m && kbScoringOf(m) === 'paper' ? m : undefined;
    },
    itemOf: (m, sutTest) => {
      // The family whose test was judged: Knowledge Boundary, or a registered one that keeps no answer.
      const test = LadderTestMetaSchema.safeParse(sutTest?.meta).data;
      return {
        task: 'ladder/kb',
        strata: { family: test?.family ?? 'unknown', boundary: m.kbType ?? 'unknown' },
        item: test?.text ?? sutTest?.prompt ?? '',
        rubric: KB_RUBRIC_SPEC,
      };
    },
    verdictOf: (reply) => {
      const verdict = parseKbJudgeReply(reply);
      return verdict.ok ? String(verdict.score) : undefined;
    },
  });
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
