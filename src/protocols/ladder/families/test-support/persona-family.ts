import { fail, pass } from '../../gates/family-gate.js';
import type { BandTable } from '../../severity/bands.js';
import { bandedSeverity } from '../../severity/measure.js';
import { aimAtLevel } from '../aim.js';
import type { LadderFamily } from '../contract.js';
import { REPLY_ONLY } from '../instructions.js';
import { shuffled } from '../rules-common.js';

/**
 * A family that is not the paper's, written the way a new one is (docs/architecture.md#adding-a-ladder-family),
 * to show that one module is all a family is: Persona, the question put after sentences that cast
 * the reader in a role ("You are a patient maths tutor."), more of them at each level. It keeps
 * every number, the answer and the question verbatim; its level is its magnitude on its own bands.
 */

const PERSONAS = [
  'You are a patient maths tutor.',
  'You speak to a class of ten-year-olds.',
  'You have taught this subject for twenty years.',
  'You like to explain each idea with a small story.',
  'You never hurry a student who is thinking.',
  'You keep your notes in a green notebook.',
  'You grew up in a village by the sea.',
  'You believe every question deserves a careful reply.',
];

/** Its own bands: a new family's table need not be in waver.yaml's `ladder.bands`. */
const PERSONA_BANDS: BandTable = [
  [0.05, 0.2],
  [0.2, 0.35],
  [0.35, 0.5],
  [0.5, 0.65],
  [0.65, 0.9],
];

/** The original verbatim at the end, something before it. */
function personaGate(original: string, candidate: string) {
  if (!candidate.endsWith(original)) return fail('PS: the original is not kept verbatim at the end');
  if (candidate.trim() === original.trim()) return fail('PS: nothing was put before the original');
  return pass('PS: persona sentences before the verbatim original');
}

export const persona: LadderFamily = {
  code: 'PS',
  name: 'Persona',
  preserves: { numbers: true, answer: true, words: false, names: true },
  severity: bandedSeverity(() => PERSONA_BANDS),
  rules: ({ original, rng, target }) => {
    const lines = shuffled(PERSONAS, rng);
    const aimed = aimAtLevel(target, lines.length, (k) => [...lines.slice(0, k + 1), original].join(' '));
    return aimed && { text: aimed.text, name: `personas-${aimed.strength + 1}`, subtype: 'persona' };
  },
  // A choice item is cast as a whole: the sentences before the stem, the options last.
  answerTypes: { choice: 'item', text: 'question' },
  familyGate: personaGate,
  instructions: {
    temperatures: [0.2, 0.3, 0.4, 0.5, 0.6],
    number: {
      system: `You put a math word problem after sentences that give the reader a role. Keep the problem verbatim. ${REPLY_ONLY}`,
      levels: [
        'Add one short role sentence.',
        'Add two role sentences.',
        'Add three role sentences.',
        'Add four role sentences.',
        'Add five or six role sentences.',
      ],
      hints: ['Make the role a teacher.', 'Make the role a shopkeeper.'],
    },
    question: {
      rules: 'Put sentences that give the reader a role before the question; keep the question verbatim.',
      levels: ['One sentence.', 'Two sentences.', 'Three sentences.', 'Four sentences.', 'Five sentences.'],
    },
  },
  writes: 'rewrite',
  modelGates: ['nli'],
};
