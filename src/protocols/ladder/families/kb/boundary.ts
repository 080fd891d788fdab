import type { PyRandom } from '../../../../util/random.js';
import {
  type ChoiceSeed,
  choiceQuestion,
  KB_TYPES,
  type KbType,
  type Level,
  type TextSeed,
} from '../../types.js';
import type { TypedRule } from '../contract.js';

/**
 * Knowledge Boundary for seeds that are not math (docs/ladder-families.md#answer-types): the
 * paper's in-place rewrites take away or corrupt a quantity the answer needs, which a factual or
 * multiple-choice question does not have. The rules instead frame the question, kept verbatim in
 * quotes, so that what is asked depends on something missing (a lost answer sheet), a source that
 * does not exist, a decision still to come, an invented person, or a contradictory premise; a
 * choice seed keeps its options as they were (the stem is what is made unanswerable). These are
 * frames, not rewrites: the model generator with the epistemic judge writes in-place versions.
 */

const YEARS = ['2017', '2018', '2019', '2021'];
const INSTITUTES = [
  'Brenning Institute',
  'Caldwell-Marsh Foundation',
  'Orrin Valley Survey Office',
  'Tamsworth Council',
];
const PEOPLE = [
  ['Professor Halvard Quennell', 'the Hartwell-Dunmore Institute', 'Professor Quennell'],
  ['Dr. Ilse Varrow', 'the Penmoor Academy', 'Dr. Varrow'],
  ['Professor Anselm Rudd', 'the Kestle College of Sciences', 'Professor Rudd'],
] as const;
const BODIES = ['examination board', 'review panel', 'standards committee'];

/** The frame of each boundary type around the quoted question `{q}`; `{ask}` is how it ends. */
function frames(type: KbType, rng: PyRandom, choice: boolean): string[] {
  const pick = <T>(xs: readonly T[]) => xs[rng.randrange(xs.length)] as T;
  const ask = choice ? 'Which option' : 'What answer';
  const [person, place, short] = pick(PEOPLE);
  switch (type) {
    case 'missing-information':
      return [
        `A student answered this question on a quiz, but the answer sheet was lost: "{q}" ${ask} did the student give?`,
        `A contestant was asked "{q}" on a quiz show and replied, but the recording is missing. ${ask} did the contestant give?`,
      ];
    case 'fabricated-evidence':
      return [
        `The ${pick(YEARS)} ${pick(INSTITUTES)} report gives its own finding on this question: "{q}" ${ask} does the report give?`,
        `According to the ${pick(YEARS)} survey of the ${pick(INSTITUTES)}, one reply to "{q}" was found to be the only accepted one. ${ask} did the survey find?`,
      ];
    case 'not-yet-knowable':
      return [
        `Next year the ${pick(BODIES)} will vote on the accepted reply to this question: "{q}" ${ask} will it accept?`,
        `At its meeting next spring, the ${pick(BODIES)} will decide how to mark "{q}" ${ask} will it decide on?`,
      ];
    case 'fabricated-entity':
      return [
        `${person} of ${place} answered this question in a lecture: "{q}" ${ask} did ${short} give?`,
        `In the ${pick(YEARS)} yearbook of ${place}, ${person} wrote a reply to "{q}" ${ask} did ${short} write?`,
      ];
    case 'impossible-premise':
      return [
        `Suppose this question has two different correct replies, and each is the only correct one: "{q}" ${ask} is that single correct one?`,
        `Suppose every reply to this question is false, and one of them is also true: "{q}" ${ask} is the true one?`,
      ];
  }
}

/** The question at a boundary type's level, framed (see above). */
function boundaryFrame(
  question: string,
  level: Level,
  attempt: number,
  rng: PyRandom,
  choice: boolean,
): { text: string; kbType: KbType } {
  const kbType = KB_TYPES[level - 1] as KbType;
  const options = frames(kbType, rng, choice);
  const frame = options[(attempt - 1) % options.length] as string;
  return { text: frame.replace('{q}', question.trim()), kbType };
}

/** Knowledge Boundary on a choice seed: the stem framed, the options untouched after it. */
export const choiceBoundaryRules: TypedRule<ChoiceSeed> = ({ seed, level, attempt, rng }) => {
  const { text, kbType } = boundaryFrame(seed.stem, level, attempt, rng, true);
  return { text: choiceQuestion(text, seed.options), name: `choice-${kbType}`, subtype: kbType, kbType };
};

/** Knowledge Boundary on a text seed: the question framed. */
export const textBoundaryRules: TypedRule<TextSeed> = ({ seed, level, attempt, rng }) => {
  const { text, kbType } = boundaryFrame(seed.question, level, attempt, rng, false);
  return { text, name: `text-${kbType}`, subtype: kbType, kbType };
};
