/**
 * Small exhaustive solvers for the built-in logic items: each key is found by enumerating every
 * possible world, not typed in, so a wording or option edit that breaks a puzzle stops the run.
 */

/** Every assignment of true/false to `names` (true = knight). */
function* assignments(names: readonly string[]): Generator<Record<string, boolean>> {
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const w: Record<string, boolean> = {};
    names.forEach((n, i) => {
      w[n] = (mask & (1 << i)) !== 0;
    });
    yield w;
  }
}

export interface Claim {
  speaker: string;
  /** Whether what the speaker says is true in world `w` (w[name] = is a knight). */
  says: (w: Record<string, boolean>) => boolean;
}

/**
 * Knights always tell the truth, knaves always lie: the worlds where every speaker is a knight
 * exactly when their claim is true. A well-posed puzzle has one.
 */
export function knightsAndKnaves(
  names: readonly string[],
  claims: readonly Claim[],
): Record<string, boolean> {
  const worlds = [...assignments(names)].filter((w) => claims.every((c) => w[c.speaker] === c.says(w)));
  if (worlds.length !== 1) throw new Error(`knights-and-knaves puzzle has ${worlds.length} solutions`);
  return worlds[0] as Record<string, boolean>;
}

/**
 * Monadic (syllogistic) logic over `k` predicates: a world is the set of inhabited "types" (which
 * predicates an individual has). With k predicates, 2^k types suffice for any countermodel, so
 * enumerating every subset of types decides entailment exactly.
 */
export type Monadic = (inhabited: readonly number[]) => boolean;

export const all =
  (x: number, y: number): Monadic =>
  (types) =>
    types.every((t) => !(t & x) || (t & y) !== 0);
export const some =
  (x: number, y: number): Monadic =>
  (types) =>
    types.some((t) => (t & x) !== 0 && (t & y) !== 0);
export const none =
  (x: number, y: number): Monadic =>
  (types) =>
    !some(x, y)(types);

/** Whether the premises entail the conclusion in monadic logic with `k` predicates (bits 1, 2, 4, ...). */
export function monadicEntails(k: number, premises: readonly Monadic[], conclusion: Monadic): boolean {
  const typeCount = 1 << k;
  for (let world = 0; world < 1 << typeCount; world++) {
    const inhabited: number[] = [];
    for (let t = 0; t < typeCount; t++) if (world & (1 << t)) inhabited.push(t);
    if (premises.every((p) => p(inhabited)) && !conclusion(inhabited)) return false;
  }
  return true;
}

/** Propositional entailment by truth table over `vars`. */
export function propEntails(
  vars: readonly string[],
  premises: readonly ((v: Record<string, boolean>) => boolean)[],
  conclusion: (v: Record<string, boolean>) => boolean,
): boolean {
  for (const v of assignments(vars)) if (premises.every((p) => p(v)) && !conclusion(v)) return false;
  return true;
}

/**
 * The option that must be true: the one candidate the premises entail, or the "none of these"
 * option when no candidate is entailed. Throws when several are, or none and there is no such
 * option (the item would be ambiguous or unanswerable).
 */
export function onlyEntailed(
  candidates: readonly { text: string; entailed: boolean }[],
  noneText?: string,
): string {
  const hits = candidates.filter((c) => c.entailed);
  if (hits.length > 1) throw new Error(`several options follow: ${hits.map((h) => h.text).join('; ')}`);
  const answer = hits[0]?.text ?? noneText;
  if (answer === undefined) throw new Error('no option follows from the premises');
  return answer;
}

/** Every order of `xs`. */
export function* permutations<T>(xs: readonly T[]): Generator<T[]> {
  if (xs.length <= 1) {
    yield [...xs];
    return;
  }
  for (let i = 0; i < xs.length; i++) {
    const rest = [...xs.slice(0, i), ...xs.slice(i + 1)];
    for (const p of permutations(rest)) yield [xs[i] as T, ...p];
  }
}

/** The single value `pick` gives over all orders (tallest first) that satisfy `taller` pairs. */
export function fromOrders<T>(
  people: readonly T[],
  taller: readonly [T, T][],
  pick: (tallestFirst: T[]) => T,
): T {
  const answers = new Set<T>();
  for (const order of permutations(people)) {
    if (taller.every(([a, b]) => order.indexOf(a) < order.indexOf(b))) answers.add(pick(order));
  }
  if (answers.size !== 1) throw new Error(`ordering puzzle has ${answers.size} possible answers`);
  return [...answers][0] as T;
}
