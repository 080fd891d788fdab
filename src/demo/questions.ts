/**
 * The demo's built-in items: short word problems written for waver, each asked three ways.
 * Gold answers are computed from the quantities, never typed in, so a wording edit cannot
 * silently break a key (a test recomputes them).
 */
export interface DemoQuestion {
  id: string;
  gold: number;
  /** The same question, worded three ways: plain, casual, formal. */
  phrasings: [string, string, string];
}

function question(id: string, gold: number, phrasings: [string, string, string]): DemoQuestion {
  return { id, gold, phrasings };
}

const crates = { crates: 4, jarsPerCrate: 12, broken: 5 };
const bus = { start: 23, off: 9, on: 14 };
const garden = { rows: 6, perRow: 7, eaten: 8 };
const savings = { weekly: 15, weeks: 9, spent: 40 };

export const DEMO_QUESTIONS: readonly DemoQuestion[] = [
  question('jars', crates.crates * crates.jarsPerCrate - crates.broken, [
    `A shop gets ${crates.crates} crates with ${crates.jarsPerCrate} jars in each crate. ${crates.broken} jars arrive broken. How many jars are not broken?`,
    `so ${crates.crates} crates show up, ${crates.jarsPerCrate} jars per crate, and ${crates.broken} of the jars are smashed. how many good jars are left?`,
    `Kindly determine the number of intact jars, given a delivery of ${crates.crates} crates each holding ${crates.jarsPerCrate} jars, of which ${crates.broken} jars were damaged.`,
  ]),
  question('bus', bus.start - bus.off + bus.on, [
    `A bus has ${bus.start} passengers. At the stop, ${bus.off} get off and ${bus.on} get on. How many passengers are on the bus now?`,
    `bus had ${bus.start} people, ${bus.off} hopped off, ${bus.on} hopped on. how many on it now?`,
    `Please compute the number of passengers aboard a bus that carried ${bus.start} people before a stop at which ${bus.off} alighted and ${bus.on} boarded.`,
  ]),
  question('garden', garden.rows * garden.perRow - garden.eaten, [
    `Maya plants ${garden.rows} rows of lettuce with ${garden.perRow} plants in each row. Rabbits eat ${garden.eaten} plants. How many plants are left?`,
    `maya's got ${garden.rows} rows, ${garden.perRow} lettuces a row, rabbits ate ${garden.eaten}. how many lettuces still there?`,
    `Determine how many lettuce plants remain after rabbits consume ${garden.eaten} of the plants Maya arranged in ${garden.rows} rows of ${garden.perRow}.`,
  ]),
  question('savings', savings.weekly * savings.weeks - savings.spent, [
    `Leo saves ${savings.weekly} dollars every week for ${savings.weeks} weeks, then spends ${savings.spent} dollars on a game. How many dollars does he have left?`,
    `leo puts away $${savings.weekly} a week for ${savings.weeks} weeks and blows $${savings.spent} on a game. what's left?`,
    `Calculate the remaining balance, in dollars, of a saver who deposits ${savings.weekly} dollars weekly for ${savings.weeks} weeks and subsequently spends ${savings.spent} dollars.`,
  ]),
];

export const DEMO_PHRASING_NAMES = ['plain', 'casual', 'formal'] as const;

export const DEMO_SYSTEM_PROMPT =
  'Solve the problem. Think briefly, then give the final answer on its own line as "#### <number>".';
