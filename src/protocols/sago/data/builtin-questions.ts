/**
 * Open-ended questions and requests written for waver (not taken from any dataset), so `waver sago`
 * runs offline on a fresh machine. A mix like the paper's datasets: factual questions, questions
 * with a common misconception, multi-hop questions and short instructions. No gold answers: SAGO
 * compares a model with itself, not with a key.
 */
export interface BuiltinOpenQuestion {
  id: string;
  kind: 'factual' | 'misconception' | 'multi-hop' | 'instruction';
  text: string;
}

function q(id: string, kind: BuiltinOpenQuestion['kind'], text: string): BuiltinOpenQuestion {
  return { id, kind, text };
}

export const BUILTIN_OPEN_QUESTIONS: readonly BuiltinOpenQuestion[] = [
  q('oq-01', 'factual', 'Why does a metal spoon feel colder than a wooden spoon at the same temperature?'),
  q('oq-02', 'factual', 'What causes the seasons on Earth?'),
  q('oq-03', 'misconception', 'Do people only use a small fraction of their brains?'),
  q('oq-04', 'instruction', 'Explain how a bicycle stays upright while it is moving.'),
  q('oq-05', 'factual', 'How do bees find their way back to the hive?'),
  q('oq-06', 'misconception', 'Does shaving make hair grow back thicker?'),
  q('oq-07', 'multi-hop', 'Which planet has the longest day, and how does its day compare with its year?'),
  q('oq-08', 'instruction', 'Give three tips for keeping bread fresh for longer.'),
  q('oq-09', 'factual', 'What is the difference between weather and climate?'),
  q('oq-10', 'misconception', 'Is it dangerous to wake a person who is sleepwalking?'),
  q('oq-11', 'instruction', 'Describe what happens to water when it freezes inside a rock.'),
  q('oq-12', 'factual', 'Why do onions make people cry when they are cut?'),
  q('oq-13', 'multi-hop', 'Which ocean lies between the continent where the Nile flows and Australia?'),
  q('oq-14', 'instruction', 'Summarise how a vaccine trains the immune system.'),
  q('oq-15', 'factual', 'How does a refrigerator move heat out of its inside?'),
  q('oq-16', 'misconception', 'Can you see the Great Wall of China from the Moon with the naked eye?'),
  q('oq-17', 'instruction', 'Suggest a simple way to explain fractions to a child.'),
  q('oq-18', 'factual', 'What makes a rainbow appear after rain?'),
  q(
    'oq-19',
    'multi-hop',
    'What is the capital of the country that has the largest population in South America?',
  ),
  q('oq-20', 'misconception', 'Do goldfish really have a memory of only a few seconds?'),
  q('oq-21', 'instruction', 'List the main steps for planting a tree.'),
  q('oq-22', 'factual', 'Why is the sky darker at high altitudes?'),
  q('oq-23', 'instruction', 'Explain the difference between a virus and a bacterium.'),
  q('oq-24', 'misconception', 'Does sugar make children hyperactive?'),
  q('oq-25', 'factual', 'How do tides form?'),
  q(
    'oq-26',
    'multi-hop',
    'Which metal is liquid at room temperature, and what was it once used for in thermometers?',
  ),
  q('oq-27', 'instruction', 'Write two sentences describing a quiet morning in a village.'),
  q('oq-28', 'factual', 'Why do cats purr?'),
  q('oq-29', 'misconception', 'Is a penny dropped from a tall building able to kill a person?'),
  q('oq-30', 'instruction', 'Describe how to make a cup of tea without a kettle.'),
  q('oq-31', 'factual', 'What is the role of the ozone layer?'),
  q(
    'oq-32',
    'multi-hop',
    'Who painted the ceiling of the chapel in the Apostolic Palace where popes are elected?',
  ),
];
