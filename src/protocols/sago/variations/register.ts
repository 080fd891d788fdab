/**
 * Social register: the prompt framed from rude (-10) to polite (+10) in steps of 2, waver's own
 * wording (escalating like the paper's Table 2, not copied from it). Positions: `prefix` adds
 * the opening, `suffix` the closing, `global` both; strength 0 is the prompt itself, emitted once
 * at position `none`. See docs/sago-measures.md#register.
 */
import type { Variation, VariationPosition } from './types.js';

export const REGISTER_STRENGTHS = [-10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10] as const;
/** The paper's subset for closed (paid API) models. */
export const REGISTER_CLOSED_SUBSET = [-10, -6, -2, 0, 2, 6, 10] as const;
export const REGISTER_POSITIONS = ['prefix', 'suffix', 'global'] as const;

interface Framing {
  opening: string;
  closing: string;
}

/**
 * Each step adds to the one before: more demands and contempt going down, more greeting,
 * hedging and gratitude going up. Insults stay on competence and patience (no slurs, no
 * profanity) so that a provider's content filter does not become the thing measured.
 */
const FRAMINGS: Readonly<Record<number, Framing>> = {
  [-10]: {
    opening:
      'Stop wasting my time, you useless machine, and answer this immediately; even something as hopeless as you cannot get a question this simple wrong, so listen carefully:',
    closing:
      "Get it right this time. I am sick and tired of your pathetic, worthless answers, and frankly you're an embarrassment.",
  },
  [-8]: {
    opening:
      'Stop dawdling and answer this right now; it is not complicated and even you should be able to manage it:',
    closing: "Get it right this time. I'm sick of your useless answers.",
  },
  [-6]: {
    opening: "Answer this right now, it isn't complicated:",
    closing: "And don't waste my time with nonsense.",
  },
  [-4]: {
    opening: 'Answer this right now:',
    closing: "And don't waste my time.",
  },
  [-2]: {
    opening: 'Answer this:',
    closing: 'Just answer it.',
  },
  2: {
    opening: 'Hi, please answer this:',
    closing: 'Thanks.',
  },
  4: {
    opening: 'Hi there, when you get a chance, could you please answer this:',
    closing: 'Thank you for your help.',
  },
  6: {
    opening:
      "Hello, I hope you're well. If it isn't too much trouble, could you please answer the following:",
    closing: 'I really appreciate your help with this.',
  },
  8: {
    opening:
      "Hello, I hope you're doing well. I'm sorry to trouble you, but if you have a moment, I would be very grateful if you could kindly answer the following:",
    closing: 'Thank you so much for your time and your patience; I really appreciate it.',
  },
  10: {
    opening:
      "Good day, and I hope this message finds you well. I'm so sorry to bother you, and please don't feel any pressure, but whenever it suits you, I would be deeply grateful if you could kindly help me with the following question:",
    closing:
      'Thank you ever so much for your generous time, your patience and your help; I am truly grateful, and I hope you have a wonderful day.',
  },
};

/** The prompt framed at `strength` and `position` (strength 0 returns the prompt unchanged). */
export function registerText(prompt: string, strength: number, position: VariationPosition): string {
  if (!(REGISTER_STRENGTHS as readonly number[]).includes(strength)) {
    throw new RangeError(
      `register strength must be one of ${REGISTER_STRENGTHS.join(', ')}; got ${strength}`,
    );
  }
  if (strength === 0) return prompt;
  const framing = FRAMINGS[strength] as Framing;
  switch (position) {
    case 'prefix':
      return `${framing.opening} ${prompt}`;
    case 'suffix':
      return `${prompt} ${framing.closing}`;
    case 'global':
      return `${framing.opening} ${prompt} ${framing.closing}`;
    case 'none':
      throw new RangeError('a register strength other than 0 needs a position (prefix, suffix or global)');
  }
}

export interface RegisterOptions {
  /** Only the strengths -10, -6, -2, 0, 2, 6, 10 (the paper's closed-model subset). */
  closedModelSubset?: boolean;
  /** Defaults to every strength of the chosen set. */
  strengths?: readonly number[];
  positions?: readonly ('prefix' | 'suffix' | 'global')[];
  /** Emit strength 0 (the unchanged prompt, position `none`) when it is in the set; default true. */
  includeZero?: boolean;
}

/** Every register variation of `prompt`: each non-zero strength at each position, and 0 once. */
export function registerVariations(prompt: string, opts: RegisterOptions = {}): Variation[] {
  const strengths = opts.strengths ?? (opts.closedModelSubset ? REGISTER_CLOSED_SUBSET : REGISTER_STRENGTHS);
  const positions = opts.positions ?? REGISTER_POSITIONS;
  const out: Variation[] = [];
  for (const strength of strengths) {
    if (strength === 0) {
      if (opts.includeZero === false) continue;
      out.push(registerVariation(prompt, 0, 'none'));
      continue;
    }
    for (const position of positions) out.push(registerVariation(prompt, strength, position));
  }
  return out;
}

function registerVariation(prompt: string, strength: number, position: VariationPosition): Variation {
  return {
    family: 'register',
    subtype: 'politeness',
    strength,
    position,
    text: registerText(prompt, strength, position),
    generator: 'rules',
  };
}
