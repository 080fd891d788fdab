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
  const prose = solution
    .replace(/####[\s\S]*$/, '')
    .replace(/<<[^>]*>>/g, '')
    .replace(/=\s*\$?\d+(?:[.,]\d+)*/g, '');
  return new Set([...calculationOperands(solution), ...numbers(prose)]);
}

/** "$400 000" and "1,200" are one number; ".2" is 0.2, as GSM8K writes it ("80*.2"). */
const numbers = (t: string) =>
  [...t.replace(/(\d)[, ](?=\d{3}\b)/g, '$1').matchAll(/\d*\.?\d+/g)].map((m) => Number(m[0]));

/** The operands of a solution's `<<a*b=c>>` calculations (before "="): what a step computes with. */
function calculationOperands(solution: string): Set<number> {
  return new Set([...solution.matchAll(/<<([^>=]*)=[^>]*>>/g)].flatMap((m) => numbers(m[1] as string)));
}

/**
 * What the question asks: its last sentence from the first question word on ("how many pans ..." of
 * "If each pan holds 12 cupcakes, how many pans ...?"), the whole last sentence when it has none. A
 * given stated before it in the same sentence (the 12) is still one the answer is computed from.
 */
export function askedClause(question: string): string {
  const sentences = question.trim().split(/(?<=[.!?])\s+/);
  const last = [...sentences].reverse().find((s) => s.includes('?')) ?? sentences.at(-1) ?? '';
  const at = last.search(/\b(?:how|what|which|who|whom|whose|when|where|why|find|calculate|determine)\b/i);
  return at < 0 ? last : last.slice(at);
}

/**
 * Quantities a directive can name: digits, not joined to a word ("10-hour", "300g"), and of what is
 * asked only one a calculation of the worked solution computes from ("in 4
 * weeks", "to make 96 cookies"): "Disregard the 24 liters" of "How much water is in the remaining 24
 * liters?" names a result, and obeying it changes nothing (blind read v6, gsm-59; docs/decisions.md E74).
 */
function nameable(question: string, solution?: string): Quantity[] {
  const askedAt = question.lastIndexOf(askedClause(question));
  const operands = solution === undefined ? new Set<number>() : calculationOperands(solution);
  return findQuantities(question).filter(
    (q) =>
      !q.hyphenated &&
      amountOf(q) !== undefined &&
      (q.index < askedAt || operands.has(amountOf(q) as number)) &&
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
export function quantityPhrase(q: Quantity, text?: string): string {
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
  const phrase = words.length > 0 ? `${q.text} ${words.join(' ')}` : q.text;
  return words.length > 0 && text !== undefined ? `${phrase}${rateOf(q, text)}` : phrase;
}

/**
 * " per jar" when the number is a rate: "8 cupcakes per jar", "8 cupcakes a jar", "8 cupcakes every
 * day" after it, or "Each jar of sprinkles can decorate 8 cupcakes" before it in its clause, so the
 * phrase names what the number counts, not a set that does not exist (blind read v6, gsm-64).
 */
function rateOf(q: Quantity, text: string): string {
  const end = q.index + q.text.length;
  const after =
    /^\s+[a-z]+(?:\s+[a-z]+)?\s+(?:(?:per|a|an|every)\s+|(?:in|for|on)\s+(?:each|every)\s+)([a-z]+)\b/i.exec(
      text.slice(end),
    );
  if (after && analyse(after[1] as string, 'noun').length > 0) return ` per ${after[1]}`;
  const clause =
    text
      .slice(0, q.index)
      .split(/[.!?;,]\s+/)
      .at(-1) ?? '';
  const before = /\b(?:each|every|per)\s+([a-z]+)\b/i.exec(clause);
  return before && analyse(before[1] as string, 'noun').length > 0 ? ` per ${before[1]}` : '';
}

/**
 * The givens of the question (not the question sentence) that the worked solution computes with,
 * as phrases; every given when there is no solution.
 */
export function usedQuantities(question: string, solution: string | undefined): Quantity[] {
  // A given before the question word of the last sentence is kept ("If she can skip at 3 mph, ...").
  const givens = nameable(question, solution);
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
  const givens = nameable(question, solution);
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
    const operands: [string, string | undefined] = [
      quantityPhrase(a, question),
      b && quantityPhrase(b, question),
    ];
    if (!out.some((s) => s.operands.join() === operands.join())) out.push({ operation, operands });
  }
  return [
    ...out.filter((s) => s.operands[1] !== undefined),
    ...out.filter((s) => s.operands[1] === undefined),
  ];
}
