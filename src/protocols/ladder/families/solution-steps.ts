/**
 * The steps of a GSM8K-style worked solution (`<<3*68=204>>`) that combine quantities the question
 * itself gives, each as the operation and the question's own phrases for its operands, so Conflict
 * Instruction Stress can name the problem's real steps ("add the 3 dozen donuts and the $68 instead
 * of multiplying them").
 */

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

function amountOf(q: Quantity): number | undefined {
  if (q.kind !== 'count' && q.kind !== 'money') return undefined;
  const n = Number(q.text.replace(/^\$/, '').replace(/,(?=\d{3}\b)/g, ''));
  return Number.isFinite(n) ? n : undefined;
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
  /^(?:has|have|had|is|are|was|were|can|will|would|do|does|did|costs?|weighs?|takes?|left|more|less|fewer|each|every|how|what)$/;

/** How a quantity reads in a directive: the number with what it counts ("3 dozen donuts", "$68 per dozen"). */
export function quantityPhrase(q: Quantity): string {
  const words: string[] = [];
  for (const w of q.follows.split(' ').filter(Boolean)) {
    if (NOT_COUNTED.test(w)) break;
    words.push(w);
  }
  return words.length > 0 ? `${q.text} ${words.join(' ')}` : q.text;
}

/**
 * The givens of the question (not the question sentence) that the worked solution computes with,
 * as phrases; every given when there is no solution.
 */
export function usedQuantities(question: string, solution: string | undefined): Quantity[] {
  // The question sentence included: GSM8K often gives a quantity there ("If she can skip at 3 mph, ...").
  const givens = nameable(question);
  if (solution === undefined) return givens;
  const used = new Set(
    [...solution.matchAll(/<<([^>=]*)=[^>]*>>/g)].flatMap((m) =>
      [...(m[1] as string).replace(/,(?=\d{3})/g, '').matchAll(/\d+(?:\.\d+)?/g)].map((x) => Number(x[0])),
    ),
  );
  return givens.filter((q) => used.has(amountOf(q) as number));
}

/**
 * The solution's steps whose first or second operand is a given of the question, with the step's
 * operation (its first operator: `3*68` multiplies; `204+160+330` is not one, its operands are
 * results). Steps with two givens come first.
 */
export function questionSteps(question: string, solution: string | undefined): QuestionStep[] {
  if (solution === undefined) return [];
  const givens = nameable(question);
  const byValue = (v: number) => givens.find((q) => amountOf(q) === v);
  const out: QuestionStep[] = [];
  for (const m of solution.matchAll(/<<([^>=]*)=[^>]*>>/g)) {
    const expr = (m[1] as string).replace(/,(?=\d{3})/g, '').replace(/\s+/g, '');
    const parts = /^\(?(\d+(?:\.\d+)?)([-+*/])(\d+(?:\.\d+)?)/.exec(expr);
    if (!parts) continue;
    const first = byValue(Number(parts[1]));
    const second = byValue(Number(parts[3]));
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
