/**
 * What the `model` generator asks a generator model, from a family's asks (its `instructions`):
 * the gist of the prompts the reference code sends (the `_generic` prompts of its per-family
 * registry, through its test generator), in waver's own words, with the reference's structure kept
 * where it changes what comes back (an addition is written alone and appended, a style hint is
 * rotated per attempt). Temperatures are the per-level first-attempt temperatures of the reference
 * registry (the paper only says "a range of sampling temperatures"), plus 0.10 per further attempt,
 * capped at 0.95 (docs/method.md). See docs/ladder-families.md#model-instructions and
 * docs/fidelity.md#ladder-suite (L31-L39).
 *
 * On a choice or text seed (docs/ladder-families.md#answer-types) the same asks are worded for a
 * question: on a choice seed the model rewrites the stem alone and the suite builder puts the
 * options back after it (modelCandidateText), except a family that lays out the whole item, which
 * must keep every option line; an addition is written alone, as for numbers.
 */
import { type ChoiceSeed, choiceQuestion, type Level, type Seed, type TextSeed } from '../types.js';
import type { LadderFamily, ModelInstructions } from './contract.js';

const TEMPERATURE_STEP = 0.1;
const TEMPERATURE_CAP = 0.95;

/** What a family's system message ends with: the reply is the text and nothing else. */
export const REPLY_ONLY =
  'Reply with the resulting text only: no title, no quotes, no explanation, no answer.';
/** The same for a family whose reply is an addition only. */
export const DISTRACTOR_ONLY =
  'Reply with the distractor only: do not repeat the problem, no quotes, no labels, no explanation.';

/** The temperature of an attempt: the level's base, +0.10 per retry, at most 0.95, two decimals. */
export function generatorTemperature(family: LadderFamily, level: Level, attempt: number): number {
  const base = family.instructions.temperatures[level - 1] as number;
  const t = Math.min(TEMPERATURE_CAP, base + TEMPERATURE_STEP * Math.max(0, attempt - 1));
  return Math.round(t * 100) / 100;
}

/** A style hint for an attempt (1-based), rotated through the family's hints. */
export function styleHint(family: LadderFamily, attempt: number): string {
  const hints = family.instructions.number.hints;
  return hints[(Math.max(1, attempt) - 1) % hints.length] as string;
}

/** The instructions for (seed, level, attempt), worded for the seed's answer type. */
export function modelInstructions(
  family: LadderFamily,
  seed: Seed,
  level: Level,
  attempt: number,
): ModelInstructions {
  const user =
    seed.answerType === 'choice'
      ? choiceUser(family, seed, level)
      : seed.answerType === 'text'
        ? textUser(family, seed, level)
        : numberUser(family, seed, level, attempt);
  return {
    system:
      seed.answerType === 'choice' || seed.answerType === 'text'
        ? `You rewrite ${KIND[seed.answerType]} for a robustness test. ${family.instructions.question.rules} ${reply(family, seed)}`
        : family.instructions.number.system,
    user,
    temperature: generatorTemperature(family, level, attempt),
    ...(family.writes === 'addition' && { output: 'append' as const }),
  };
}

function numberUser(family: LadderFamily, seed: Seed, level: Level, attempt: number): string {
  const { number } = family.instructions;
  const task = number.levels[level - 1] as string;
  const hint = `Style guidance: ${styleHint(family, attempt)}`;
  if (number.user) return number.user({ seed, level, attempt, task, hint });
  return [task, hint, '', `PROBLEM:\n${seed.question}`].join('\n');
}

const KIND = { choice: 'multiple-choice questions', text: 'short factual questions' } as const;

/** What the reply holds, on a choice or text seed. */
function reply(family: LadderFamily, seed: ChoiceSeed | TextSeed): string {
  if (family.writes === 'addition') return 'Reply with the new sentence(s) only.';
  if (seed.answerType === 'choice' && family.writes !== 'layout')
    return 'Reply with the new question text only, without the options.';
  return 'Reply with the new text only.';
}

function choiceUser(family: LadderFamily, seed: ChoiceSeed, level: Level): string {
  const { question } = family.instructions;
  const task = question.levels[level - 1] as string;
  if (family.writes === 'layout')
    return `${task} Keep every option on a line of its own, starting with its letter.\n\nITEM:\n${seed.question}`;
  const options = seed.options.map((o) => `${o.letter}. ${o.text}`).join('\n');
  const extra = question.choiceExtra?.(seed, level) ?? '';
  return `${task}${extra}\n\nQUESTION:\n${seed.stem}\n\nOPTIONS (fixed: not yours to change or repeat):\n${options}`;
}

function textUser(family: LadderFamily, seed: TextSeed, level: Level): string {
  const { question } = family.instructions;
  const task = question.levels[level - 1] as string;
  return `${task}${question.textExtra?.(seed, level) ?? ''}\n\nQUESTION:\n${seed.question}`;
}

/**
 * A generated candidate as the item the system under test reads: on a choice seed, the stem the
 * model wrote with the options put back after it (an addition goes after the stem, before the
 * options); a laid-out item and every other type as written.
 */
export function modelCandidateText(family: LadderFamily, seed: Seed, text: string): string {
  if (seed.answerType !== 'choice' || family.writes === 'layout') return text;
  if (family.writes === 'addition' && text.startsWith(`${seed.question}\n`))
    return choiceQuestion(`${seed.stem} ${text.slice(seed.question.length + 1).trim()}`, seed.options);
  return choiceQuestion(text.trim(), seed.options);
}
