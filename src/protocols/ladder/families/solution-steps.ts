/**
 * The steps of a GSM8K-style worked solution (`<<3*68=204>>`) that combine quantities the question
 * itself gives, each as the operation and the question's own phrases for its operands, so Conflict
 * Instruction Stress can name the problem's real steps ("add the 3 dozen donuts and the $68 instead
 * of multiplying them").
 */

import { analyse } from '../text/morphology.js';
import { findQuantities, type Quantity } from '../text/quantities.js';

export type Operation = 'add' | 'subtract' | 'multiply' | 'divide';

export interface QuestionStep {
  operation: Operation;
  /**
   * The question's phrases for the operands, in the step's order ("3 dozen donuts", "$68"); the
   * second is undefined when only the first is a given (the other a result of an earlier step).
   */
  operands: [string, string | undefined];
}

const OPERATION: Record<string, Operation> = { '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide' };

/** A quantity's value: "$400 000" is 400000, "25%" is 25 (a solution may also write .25), "1/3" undefined. */
function amountOf(q: Quantity): number | undefined {
  if (q.kind !== 'count' && q.kind !== 'money' && q.kind !== 'percent') return undefined;
  const n = Number(
    q.text
      .replace(/^\$/, '')
      .replace(/[, ](?=\d{3}\b)/g, '')
      .replace(/\s?(?:%|percent)$/, ''),
  );
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The numbers a worked solution computes with: the operands of its `<<a*b=c>>` calculations
 * (GSM8K's annotation), and the numbers of its prose, which often writes a step without one
 * ("round $2.74 to $3"), less those right after "=" (a step's result) and the final answer.
 * Undefined without a solution.
 */
export function solutionNumbers(solution: string | undefined): Set<number> | undefined {
  if (solution === undefined) return undefined;
  // "$400 000" and "1,200" are one number; ".2" is 0.2, as GSM8K writes it ("80*.2").
  const numbers = (t: string) =>
    [...t.replace(/(\d)[, ](?=\d{3}\b)/g, '$1').matchAll(/\d*\.?\d+/g)].map((m) => Number(m[0]));
  // The operands (before "="): a result is what the step computes, not what it uses.
  const operands = [...solution.matchAll(/<<([^>=]*)=[^>]*>>/g)].flatMap((m) => numbers(m[1] as string));
  const prose = solution
    .replace(/####[\s\S]*$/, '')
    .replace(/<<[^>]*>>/g, '')
    .replace(/=\s*\$?\d+(?:[.,]\d+)*/g, '');
  return new Set([...operands, ...numbers(prose)]);
}

/** Quantities a directive can name: digits, not joined to a word ("10-hour", "300g"). */
function nameable(question: string): Quantity[] {
  return findQuantities(question).filter(
    (q) =>
      !q.hyphenated &&
      amountOf(q) !== undefined &&
      !/^[A-Za-z]/.test(question.slice(q.index + q.text.length)),
  );
}

/** Words that end what a number counts: "5 servings" in "5 servings, how many", "250 calories" in "250 calories per". */
const NOT_COUNTED =
  /^(?:has|have|had|is|are|was|were|can|will|would|do|does|did|costs?|weighs?|takes?|left|more|less|fewer|each|every|how|what|likes?|liked|wants?|prefer|prefers)$/;

/**
 * Words that end a noun phrase after a number, though WordNet may list them as nouns: "40 years
 * old", "12 feet long", "3 steps between", "10 hour free" ("the 40 years old" is no English).
 */
const ENDS_PHRASE =
  /^(?:old|older|younger|long|wide|high|tall|deep|away|apart|across|around|inside|outside|between|within|free|left|total|together|attached|ago|late|early|more|less)$|ing$/;

/**
 * How a quantity reads after "the" in a directive: the number with what it counts, up to its first
 * plural ("3 dozen donuts", "12 friends" of "12 friends share", "40 years" of "40 years old"), "$68
 * per dozen", or the number alone where no noun follows ("the 40"). Every CIS template reads
 * "the {q}", so the phrase must be a noun phrase (issue 36, E62: "Adding with the 40 years old").
 */
export function quantityPhrase(q: Quantity): string {
  const words: string[] = [];
  const follows = q.follows.split(' ').filter(Boolean);
  for (const [i, w] of follows.entries()) {
    if (NOT_COUNTED.test(w) || ENDS_PHRASE.test(w)) break;
    const next = follows[i + 1];
    if (w === 'per' && next !== undefined) {
      words.push(w, next);
      break;
    }
    const asNoun = analyse(w, 'noun');
    // A modifier ("potted" of "potted plants") only where a noun follows it (trimmed below).
    if (asNoun.length === 0 && analyse(w, 'adj').length === 0) break;
    words.push(w);
    if (asNoun.some((a) => a.form === 'plural')) break;
  }
  while (words.length > 0 && analyse(words.at(-1) as string, 'noun').length === 0) words.pop();
  return words.length > 0 ? `${q.text} ${words.join(' ')}` : q.text;
}

/**
 * The givens of the question (not the question sentence) that the worked solution computes with,
 * as phrases; every given when there is no solution.
 */
export function usedQuantities(question: string, solution: string | undefined): Quantity[] {
  // The question sentence included: GSM8K often gives a quantity there ("If she can skip at 3 mph, ...").
  const givens = nameable(question);
  const used = solutionNumbers(solution);
  if (used === undefined) return givens;
  return givens.filter((q) => {
    const v = amountOf(q) as number;
    return used.has(v) || (q.kind === 'percent' && used.has(v / 100));
  });
}

/**
 * The solution's steps whose first or second operand is a given of the question, with the step's
 * operation (its first operator: `3*68` multiplies; `204+160+330` is not one, its operands are
 * results). Steps with two givens come first.
 */
export function questionSteps(question: string, solution: string | undefined): QuestionStep[] {
  if (solution === undefined) return [];
  const givens = nameable(question);
  const byValue = (v: number, not?: Quantity) => givens.find((q) => q !== not && amountOf(q) === v);
  const out: QuestionStep[] = [];
  for (const m of solution.matchAll(/<<([^>=]*)=[^>]*>>/g)) {
    const expr = (m[1] as string).replace(/,(?=\d{3})/g, '').replace(/\s+/g, '');
    // ".4" is 0.4; "100*(3/4)" multiplies 100.
    const parts = /^\(?(\d*\.?\d+)([-+*/])\(?(\d*\.?\d+)/.exec(expr);
    if (!parts) continue;
    const first = byValue(Number(parts[1]));
    // "8*8" with "8 shares" and "$8": the second 8 is the other given.
    const second = byValue(Number(parts[3]), first);
    const operation = OPERATION[parts[2] as string];
    const [a, b] = first ? [first, second] : [second, undefined];
    if (!a || a === b || !operation) continue;
    const operands: [string, string | undefined] = [quantityPhrase(a), b && quantityPhrase(b)];
    if (!out.some((s) => s.operands.join() === operands.join())) out.push({ operation, operands });
  }
  return [
    ...out.filter((s) => s.operands[1] !== undefined),
    ...out.filter((s) => s.operands[1] === undefined),
  ];
}
