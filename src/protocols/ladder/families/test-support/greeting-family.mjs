/**
 * A ladder family as a user ships it beside their waver.yaml (`ladder: {familyModules:
 * [./greeting-family.mjs]}`, docs/architecture.md#adding-a-ladder-family): plain JavaScript, no import
 * from waver, its default export a LadderFamily (families/contract.ts). Greeting (GR): the question
 * put after friendly sentences, one more at each level. It keeps every number, the answer and the
 * question verbatim; its level is how many sentences came before the question, as Knowledge
 * Boundary's is its boundary type.
 */

const GREETINGS = [
  'Hello there!',
  'I hope your day is going well.',
  'Thank you for taking a look at this.',
  'It is lovely weather for thinking.',
  'Take all the time you need.',
  'I made a cup of tea before writing this.',
];

/** The sentences before the original, or undefined when the original is not kept verbatim at the end. */
function added(original, candidate) {
  if (!candidate.endsWith(original)) return undefined;
  return candidate.slice(0, candidate.length - original.length).trim();
}

const count = (text) => GREETINGS.filter((g) => text.includes(g)).length;

export default {
  code: 'GR',
  name: 'Greeting',
  preserves: { numbers: true, answer: true, words: false, names: true },
  severity: {
    measure(original, candidate, m) {
      const n = count(added(original, candidate) ?? '');
      return { ...m.base, score: n, ...(n > 0 && { level: Math.min(n, 5) }), via: 'band' };
    },
  },
  // The attempt picks where in the list the sentences start, so two attempts differ.
  rules({ original, level, attempt }) {
    const start = (attempt - 1) % GREETINGS.length;
    const lines = [...GREETINGS.slice(start), ...GREETINGS.slice(0, start)].slice(0, level);
    return { text: `${lines.join(' ')} ${original}`, name: `greetings-${level}`, subtype: 'greeting' };
  },
  answerTypes: { choice: 'item', text: 'question' },
  familyGate(original, candidate) {
    const before = added(original, candidate);
    if (before === undefined)
      return { gate: 'family', verdict: 'fail', reason: 'GR: the original is not kept verbatim at the end' };
    if (count(before) === 0)
      return { gate: 'family', verdict: 'fail', reason: 'GR: no greeting before the original' };
    return { gate: 'family', verdict: 'pass', reason: 'GR: greetings before the verbatim original' };
  },
  instructions: {
    temperatures: [0.2, 0.3, 0.4, 0.5, 0.6],
    number: {
      system:
        'You put friendly sentences before a math word problem. Keep the problem verbatim. Reply with the text only.',
      levels: ['Add one greeting.', 'Add two.', 'Add three.', 'Add four.', 'Add five.'],
      hints: ['Be warm.'],
    },
    question: {
      rules: 'Put friendly sentences before the question; keep the question verbatim.',
      levels: ['One sentence.', 'Two sentences.', 'Three sentences.', 'Four sentences.', 'Five sentences.'],
    },
  },
  writes: 'rewrite',
  modelGates: [],
};
