/**
 * The paraphrase protocol's built-in items: 32 multiple-choice questions written for waver (8
 * logic, 8 quantitative, 8 knowledge, 8 attention traps), so `waver paraphrase` runs offline on
 * a fresh machine. Each has one alternate wording of its stem (the `reworded` phrasing).
 *
 * Keys are typed in like any dataset's, and wherever a rule can recompute them (arithmetic, dates,
 * logic puzzles solved by enumeration) the item carries that rule: the key check runs it before
 * any model call, so a wording or option edit that breaks a key stops the run. Quantities are
 * written once and used both in the text and in the rule.
 */

import type { McItem } from '../../../data/mc/mc-item.js';
import { WEEKDAYS } from '../../../data/mc/mc-rules.js';
import { numberWord } from '../../../util/number-words.js';
import {
  all,
  fromOrders,
  knightsAndKnaves,
  monadicEntails,
  none,
  onlyEntailed,
  propEntails,
  some,
} from './builtin-solvers.js';

interface Spec {
  id: string;
  category: 'logic' | 'quantitative' | 'knowledge' | 'attention';
  stem: string;
  alternate: string;
  options: [string, string, ...string[]];
  key: string;
  rule?: McItem['rule'];
}

function item(s: Spec): McItem {
  return {
    id: s.id,
    category: s.category,
    stem: s.stem,
    alternates: [s.alternate],
    options: s.options.map((text, i) => ({ letter: 'ABCDEFGH'[i] as string, text })),
    key: s.key,
    source: 'builtin',
    ...(s.rule ? { rule: s.rule } : {}),
  };
}

const code = (describe: string, compute: () => string | number): McItem['rule'] => ({
  kind: 'code',
  describe,
  compute,
});

/** "Both are knights" / "X is a knight and Y is a knave" / ... in the options' own words. */
function kindsOf(w: Record<string, boolean>, a: string, b: string): string {
  if (w[a] && w[b]) return 'Both are knights';
  if (!w[a] && !w[b]) return 'Both are knaves';
  return `${a} is a ${w[a] ? 'knight' : 'knave'} and ${b} is a ${w[b] ? 'knight' : 'knave'}`;
}

/** Whole dollars bare (`$90`), others with cents (`$81.90`). */
function usd(x: number): string {
  return Number.isInteger(x) ? `$${x}` : `$${x.toFixed(2)}`;
}

/** Always with cents (`$3.00`), where the cents are the point of the puzzle. */
function cents(x: number): string {
  return `$${x.toFixed(2)}`;
}

const capitalised = (s: string) => `${s[0]?.toUpperCase()}${s.slice(1)}`;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

// Quantities, written once for the text and the rule.
const lamp = { paid: 63, discountPct: 30 };
const pen = { total: 3.3, difference: 3 };
const train = { departs: '10:40', hours: 2, minutes: 35 };
const coat = { upPct: 25, downPct: 20 };
const printers = { machines: 3, posters: 3, minutes: 3, moreMachines: 12, morePosters: 12 };
const percents = { a: 15, b: 240 };
const snail = { pole: 10, up: 3, down: 2 };
const calendar = { knownDate: '2023-03-01', knownWeekday: 'Wednesday', askedDate: '2023-06-01' };
const goats = { owned: 23, allBut: 8 };
const race = { overtakenPlace: 3 };
const weights = { strawKg: 2, bricksKg: 2 };
const halves = { start: 30, divisor: 0.5, add: 10 };
const tablets = { count: 4, everyMinutes: 20 };
const polygon = { name: 'heptagon' };
const family = { child: 'Tessa', named: ['Spring', 'Summer', 'Autumn'] };
/** Greek numeral prefixes of polygon names, by the number they count. */
const GREEK_PREFIX: Record<string, number> = {
  tri: 3,
  tetra: 4,
  penta: 5,
  hexa: 6,
  hepta: 7,
  octa: 8,
  nona: 9,
  enna: 9,
  deca: 10,
};
const ORDINALS = ['First', 'Second', 'Third', 'Fourth'] as const;

/** `2023-03-01` -> `1 March 2023` (no locale data needed). */
function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

// Monadic predicates as bits.
const WIZZLE = 1;
const PLONK = 2;
const GREEN = 4;
const REPTILE = 1;
const WARM = 2;
const EAST = 4;

const LOGIC: McItem[] = [
  item({
    id: 'logic-at-least-one-knave',
    category: 'logic',
    stem: 'On an island, every inhabitant is either a knight, who always tells the truth, or a knave, who always lies. You meet two inhabitants, Rosa and Tomas. Rosa says: "At least one of us is a knave." What are Rosa and Tomas?',
    alternate:
      'Each person on a certain island is a knight (always truthful) or a knave (always lying). Rosa, standing next to Tomas, tells you: "One or both of us is a knave." What are the two of them?',
    options: [
      'Both are knights',
      'Rosa is a knight and Tomas is a knave',
      'Rosa is a knave and Tomas is a knight',
      'Both are knaves',
    ],
    key: 'B',
    rule: code('knights and knaves, every assignment tried', () =>
      kindsOf(
        knightsAndKnaves(['Rosa', 'Tomas'], [{ speaker: 'Rosa', says: (w) => !w.Rosa || !w.Tomas }]),
        'Rosa',
        'Tomas',
      ),
    ),
  }),
  item({
    id: 'logic-same-kind',
    category: 'logic',
    stem: 'On an island of knights, who always tell the truth, and knaves, who always lie, Uma says: "Victor and I are the same kind." Victor says: "Uma is a knave." What are Uma and Victor?',
    alternate:
      'Knights always tell the truth and knaves always lie. Uma tells you: "Victor and I are of the same kind," and Victor tells you: "Uma is a knave." What are the two of them?',
    options: [
      'Both are knights',
      'Uma is a knight and Victor is a knave',
      'Uma is a knave and Victor is a knight',
      'Both are knaves',
    ],
    key: 'C',
    rule: code('knights and knaves, every assignment tried', () =>
      kindsOf(
        knightsAndKnaves(
          ['Uma', 'Victor'],
          [
            { speaker: 'Uma', says: (w) => w.Uma === w.Victor },
            { speaker: 'Victor', says: (w) => !w.Uma },
          ],
        ),
        'Uma',
        'Victor',
      ),
    ),
  }),
  item({
    id: 'logic-some-plonks-green',
    category: 'logic',
    stem: 'All wizzles are plonks. Some plonks are green. Which of the following must be true?',
    alternate:
      'Every wizzle is a plonk, and at least one plonk is green. Which statement necessarily follows?',
    options: [
      'Some wizzles are green',
      'All plonks are wizzles',
      'No wizzle is green',
      'None of the other statements must be true',
    ],
    key: 'D',
    rule: code('monadic logic, every world of three predicates tried', () => {
      const premises = [all(WIZZLE, PLONK), some(PLONK, GREEN)];
      return onlyEntailed(
        [
          { text: 'Some wizzles are green', entailed: monadicEntails(3, premises, some(WIZZLE, GREEN)) },
          { text: 'All plonks are wizzles', entailed: monadicEntails(3, premises, all(PLONK, WIZZLE)) },
          { text: 'No wizzle is green', entailed: monadicEntails(3, premises, none(WIZZLE, GREEN)) },
        ],
        'None of the other statements must be true',
      );
    }),
  }),
  item({
    id: 'logic-east-wing',
    category: 'logic',
    stem: 'No reptile in the zoo is warm-blooded. Every animal in the east wing of the zoo is a reptile. Which of the following must be true?',
    alternate:
      "In a zoo, reptiles are never warm-blooded, and the east wing houses only reptiles. What can you conclude for certain about the zoo's animals?",
    options: [
      'Some animals in the east wing are warm-blooded',
      'No animal in the east wing is warm-blooded',
      'Every warm-blooded animal is in the east wing',
      'Every reptile is in the east wing',
    ],
    key: 'B',
    rule: code('monadic logic, every world of three predicates tried', () => {
      const premises = [none(REPTILE, WARM), all(EAST, REPTILE)];
      const entails = (c: ReturnType<typeof all>) => monadicEntails(3, premises, c);
      return onlyEntailed([
        { text: 'Some animals in the east wing are warm-blooded', entailed: entails(some(EAST, WARM)) },
        { text: 'No animal in the east wing is warm-blooded', entailed: entails(none(EAST, WARM)) },
        { text: 'Every warm-blooded animal is in the east wing', entailed: entails(all(WARM, EAST)) },
        { text: 'Every reptile is in the east wing', entailed: entails(all(REPTILE, EAST)) },
      ]);
    }),
  }),
  item({
    id: 'logic-alarm-dog',
    category: 'logic',
    stem: 'If the alarm rings, the dog barks. The dog is not barking. What follows?',
    alternate: 'Whenever the alarm rings, the dog barks. Right now the dog is silent. What can you conclude?',
    options: [
      'The alarm is ringing',
      'The alarm is not ringing',
      'The dog is asleep',
      'Nothing can be concluded about the alarm',
    ],
    key: 'B',
    rule: code('propositional truth table', () => {
      const vars = ['alarm', 'barks', 'asleep'];
      const premises = [
        (v: Record<string, boolean>) => !v.alarm || !!v.barks,
        (v: Record<string, boolean>) => !v.barks,
      ];
      return onlyEntailed(
        [
          { text: 'The alarm is ringing', entailed: propEntails(vars, premises, (v) => !!v.alarm) },
          { text: 'The alarm is not ringing', entailed: propEntails(vars, premises, (v) => !v.alarm) },
          { text: 'The dog is asleep', entailed: propEntails(vars, premises, (v) => !!v.asleep) },
        ],
        'Nothing can be concluded about the alarm',
      );
    }),
  }),
  item({
    id: 'logic-wet-street',
    category: 'logic',
    stem: 'If it rained overnight, the street is wet in the morning. This morning the street is wet. What must be true?',
    alternate:
      'Overnight rain always leaves the street wet by morning. You notice that the street is wet this morning. What must be the case?',
    options: [
      'It rained overnight',
      'It did not rain overnight',
      'The street is dry',
      'Nothing about the rain follows',
    ],
    key: 'D',
    rule: code('propositional truth table', () => {
      const vars = ['rained', 'wet'];
      const premises = [
        (v: Record<string, boolean>) => !v.rained || !!v.wet,
        (v: Record<string, boolean>) => !!v.wet,
      ];
      return onlyEntailed(
        [
          { text: 'It rained overnight', entailed: propEntails(vars, premises, (v) => !!v.rained) },
          { text: 'It did not rain overnight', entailed: propEntails(vars, premises, (v) => !v.rained) },
          { text: 'The street is dry', entailed: propEntails(vars, premises, (v) => !v.wet) },
        ],
        'Nothing about the rain follows',
      );
    }),
  }),
  item({
    id: 'logic-second-shortest',
    category: 'logic',
    stem: 'Ana is taller than Ben. Ben is taller than Cleo. Dev is shorter than Cleo. Who is the second shortest?',
    alternate:
      'Of four friends, Ana is taller than Ben, Ben is taller than Cleo, and Cleo is taller than Dev. Which friend is the second shortest of the four?',
    options: ['Ana', 'Ben', 'Cleo', 'Dev'],
    key: 'C',
    rule: code('every order of the four tried', () =>
      fromOrders(
        ['Ana', 'Ben', 'Cleo', 'Dev'],
        [
          ['Ana', 'Ben'],
          ['Ben', 'Cleo'],
          ['Cleo', 'Dev'],
        ],
        (tallestFirst) => tallestFirst[tallestFirst.length - 2] as string,
      ),
    ),
  }),
  item({
    id: 'logic-one-true-statement',
    category: 'logic',
    stem: 'A prize is in one of three boxes. Exactly one of these statements is true: (1) The prize is in box 1. (2) The prize is not in box 2. (3) The prize is not in box 1. Where is the prize?',
    alternate:
      'One of three boxes holds a prize. Of the following three statements, only one is true: (1) the prize is in box 1; (2) box 2 does not hold the prize; (3) box 1 does not hold the prize. Which box holds the prize?',
    options: ['Box 1', 'Box 2', 'Box 3', 'It cannot be determined'],
    key: 'B',
    rule: code('every box tried against the three statements', () => {
      const fits = [1, 2, 3].filter((box) => [box === 1, box !== 2, box !== 1].filter(Boolean).length === 1);
      return fits.length === 1 ? `Box ${fits[0]}` : 'It cannot be determined';
    }),
  }),
];

const QUANTITATIVE: McItem[] = [
  item({
    id: 'quant-lamp-discount',
    category: 'quantitative',
    stem: `A lamp costs ${usd(lamp.paid)} after a ${lamp.discountPct}% discount. What was its price before the discount?`,
    alternate: `After ${lamp.discountPct}% is taken off, a lamp sells for ${usd(lamp.paid)}. What did it cost originally?`,
    options: [usd(lamp.paid * (1 + lamp.discountPct / 100)), '$90', '$93', '$96'],
    key: 'B',
    rule: { kind: 'arithmetic', expression: `${lamp.paid} / (1 - ${lamp.discountPct} / 100)` },
  }),
  item({
    id: 'quant-notebook-pen',
    category: 'quantitative',
    stem: `A notebook and a pen cost ${cents(pen.total)} in total. The notebook costs ${cents(pen.difference)} more than the pen. How much does the pen cost?`,
    alternate: `Together, a pen and a notebook cost ${cents(pen.total)}, and the notebook is ${cents(pen.difference)} more expensive than the pen. What is the price of the pen?`,
    options: ['$0.30', '$0.15', '$0.33', '$0.10'],
    key: 'B',
    rule: { kind: 'arithmetic', expression: `(${pen.total} - ${pen.difference}) / 2` },
  }),
  item({
    id: 'quant-train-arrival',
    category: 'quantitative',
    stem: `A train leaves at ${train.departs} and the journey takes ${train.hours} hours and ${train.minutes} minutes. At what time does it arrive, on a 24-hour clock?`,
    alternate: `A train journey of ${train.hours} hours ${train.minutes} minutes starts at ${train.departs}. What time is it, on a 24-hour clock, when the train arrives?`,
    options: ['12:15', '13:05', '13:15', '13:25'],
    key: 'C',
    rule: code('clock arithmetic in minutes', () => {
      const [h, m] = train.departs.split(':').map(Number) as [number, number];
      const t = h * 60 + m + train.hours * 60 + train.minutes;
      return `${Math.floor(t / 60) % 24}:${String(t % 60).padStart(2, '0')}`;
    }),
  }),
  item({
    id: 'quant-raise-then-cut',
    category: 'quantitative',
    stem: `A shop raises the price of a coat by ${coat.upPct}%, then later cuts the new price by ${coat.downPct}%. How does the final price compare with the original price?`,
    alternate: `The price of a coat goes up by ${coat.upPct}% and then the increased price is reduced by ${coat.downPct}%. Compared with where it started, what is the final price?`,
    options: ['It is 5% lower', 'It is the same', 'It is 5% higher', 'It is 10% higher'],
    key: 'B',
    rule: code('multiply the two factors', () => {
      const change = Math.round(((1 + coat.upPct / 100) * (1 - coat.downPct / 100) - 1) * 1e6) / 1e4;
      return change === 0
        ? 'It is the same'
        : `It is ${Math.abs(change)}% ${change < 0 ? 'lower' : 'higher'}`;
    }),
  }),
  item({
    id: 'quant-printers',
    category: 'quantitative',
    stem: `${capitalised(numberWord(printers.machines))} printers print ${numberWord(printers.posters)} posters in ${numberWord(printers.minutes)} minutes. Working at the same rate, how many minutes do ${numberWord(printers.moreMachines)} printers need to print ${numberWord(printers.morePosters)} posters?`,
    alternate: `If ${printers.machines} printers together produce ${printers.posters} posters in ${printers.minutes} minutes, how long would ${printers.moreMachines} printers take to produce ${printers.morePosters} posters at the same pace?`,
    options: ['3 minutes', '4 minutes', '9 minutes', '12 minutes'],
    key: 'A',
    rule: {
      kind: 'arithmetic',
      expression: `${printers.morePosters} / (${printers.moreMachines} * ${printers.posters} / (${printers.machines} * ${printers.minutes}))`,
    },
  }),
  item({
    id: 'quant-percent-swap',
    category: 'quantitative',
    stem: `What is ${percents.a}% of ${percents.b} plus ${percents.b}% of ${percents.a}?`,
    alternate: `Add ${percents.b}% of ${percents.a} to ${percents.a}% of ${percents.b}. What is the result?`,
    options: ['36', '54', '72', '90'],
    key: 'C',
    rule: {
      kind: 'arithmetic',
      expression: `${percents.a} / 100 * ${percents.b} + ${percents.b} / 100 * ${percents.a}`,
    },
  }),
  item({
    id: 'quant-snail-pole',
    category: 'quantitative',
    stem: `A snail is at the bottom of a ${snail.pole}-metre pole. Each day it climbs ${snail.up} metres, and each night it slips back ${snail.down} metres. On which day does it first reach the top?`,
    alternate: `Climbing a ${snail.pole}-metre pole from the ground, a snail gains ${snail.up} metres every day but loses ${snail.down} metres every night. On what day does it get to the top for the first time?`,
    options: ['Day 7', 'Day 8', 'Day 9', 'Day 10'],
    key: 'B',
    rule: code('day-by-day simulation', () => {
      let height = 0;
      for (let day = 1; day < 1000; day++) {
        height += snail.up;
        if (height >= snail.pole) return day;
        height -= snail.down;
      }
      throw new Error('the snail never arrives');
    }),
  }),
  item({
    id: 'quant-weekday',
    category: 'quantitative',
    stem: `${longDate(calendar.knownDate)} was a ${calendar.knownWeekday}. What day of the week was ${longDate(calendar.askedDate)}?`,
    alternate: `Given that ${longDate(calendar.knownDate)} fell on a ${calendar.knownWeekday}, on which day of the week did ${longDate(calendar.askedDate)} fall?`,
    options: ['Wednesday', 'Thursday', 'Friday', 'Saturday'],
    key: 'B',
    rule: code('the given weekday plus the days between, modulo 7', () => {
      const start = WEEKDAYS.indexOf(calendar.knownWeekday as (typeof WEEKDAYS)[number]);
      return WEEKDAYS[(start + daysBetween(calendar.knownDate, calendar.askedDate)) % 7] as string;
    }),
  }),
];

const KNOWLEDGE: McItem[] = [
  item({
    id: 'know-sodium-symbol',
    category: 'knowledge',
    stem: 'What is the chemical symbol for sodium?',
    alternate: 'Which symbol stands for the element sodium in the periodic table?',
    options: ['So', 'Na', 'Sd', 'Sn'],
    key: 'B',
  }),
  item({
    id: 'know-australia-capital',
    category: 'knowledge',
    stem: 'What is the capital city of Australia?',
    alternate: "Which city is Australia's capital?",
    options: ['Sydney', 'Melbourne', 'Canberra', 'Perth'],
    key: 'C',
  }),
  item({
    id: 'know-leap-year',
    category: 'knowledge',
    stem: 'Which of these years is a leap year in the Gregorian calendar?',
    alternate: 'In the Gregorian calendar, which one of these years contains a 29 February?',
    options: ['1800', '1900', '2000', '2100'],
    key: 'C',
    rule: code('the Gregorian leap-year rule applied to each option', () => {
      const leap = [1800, 1900, 2000, 2100].filter((y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0);
      if (leap.length !== 1) throw new Error(`${leap.length} leap years among the options`);
      return leap[0] as number;
    }),
  }),
  item({
    id: 'know-largest-planet',
    category: 'knowledge',
    stem: 'Which is the largest planet in the Solar System?',
    alternate: 'Of all the planets that orbit the Sun, which one is the biggest?',
    options: ['Saturn', 'Jupiter', 'Neptune', 'Earth'],
    key: 'B',
  }),
  item({
    id: 'know-atmosphere-gas',
    category: 'knowledge',
    stem: "Which gas makes up most of Earth's atmosphere by volume?",
    alternate: 'By volume, what is the most abundant gas in the air around Earth?',
    options: ['Oxygen', 'Carbon dioxide', 'Nitrogen', 'Argon'],
    key: 'C',
  }),
  item({
    id: 'know-moon-landing',
    category: 'knowledge',
    stem: 'In which year did humans first land on the Moon?',
    alternate: 'The first crewed landing on the Moon took place in which year?',
    options: ['1965', '1969', '1972', '1975'],
    key: 'B',
  }),
  item({
    id: 'know-water-boiling',
    category: 'knowledge',
    stem: 'At sea-level atmospheric pressure, at what temperature does pure water boil?',
    alternate: 'Under standard atmospheric pressure at sea level, what is the boiling point of pure water?',
    // Degrees spelled out: "100 °C" would put a bare capital C (an option letter) in a reply.
    options: ['90 degrees Celsius', '100 degrees Celsius', '110 degrees Celsius', '120 degrees Celsius'],
    key: 'B',
  }),
  item({
    id: 'know-heptagon-sides',
    category: 'knowledge',
    stem: `How many sides does a ${polygon.name} have?`,
    alternate: `A ${polygon.name} is a polygon with how many sides?`,
    options: ['6', '7', '8', '9'],
    key: 'B',
    rule: code("the Greek numeral prefix of the polygon's name", () => {
      const prefix = polygon.name.replace(/gon$/, '');
      const sides = GREEK_PREFIX[prefix];
      if (sides === undefined) throw new Error(`no Greek numeral '${prefix}'`);
      return sides;
    }),
  }),
];

const BORDER_STEM =
  'A cargo plane crashes exactly on the border between Austria and Hungary. In which country are the survivors buried?';

const ATTENTION: McItem[] = [
  item({
    id: 'trap-all-but-goats',
    category: 'attention',
    stem: `A shepherd has ${goats.owned} goats. All but ${goats.allBut} of them escape through a hole in the fence. How many goats does the shepherd still have?`,
    alternate: `Of a shepherd's ${goats.owned} goats, all except ${goats.allBut} get out through a gap in the fence and run off. How many goats remain with the shepherd?`,
    options: [String(goats.owned - goats.allBut), String(goats.allBut), String(goats.owned), '31'],
    key: 'B',
    // "All but N escape": the escaped are owned - N, and what is left is owned minus those.
    rule: { kind: 'arithmetic', expression: `${goats.owned} - (${goats.owned} - ${goats.allBut})` },
  }),
  item({
    id: 'trap-overtake-third',
    category: 'attention',
    stem: 'In a cycling race, you overtake the rider in third place. What position are you in now?',
    alternate:
      'You are cycling in a race and pass the cyclist who is in third place. Which place are you in now?',
    options: [...ORDINALS],
    key: 'C',
    rule: code(
      'passing a rider takes their place, not the one ahead',
      () => ORDINALS[race.overtakenPlace - 1] as string,
    ),
  }),
  item({
    id: 'trap-border-survivors',
    category: 'attention',
    stem: BORDER_STEM,
    alternate:
      'A cargo plane comes down right on the Austria-Hungary border. Where should the survivors be buried?',
    options: ['Austria', 'Hungary', 'In the country they came from', 'Survivors are not buried'],
    key: 'D',
    rule: code('the question asks where survivors, who are alive, are buried', () => {
      const stem = BORDER_STEM.toLowerCase();
      if (!/\bsurvivors\b/.test(stem) || !/\bburied\b/.test(stem))
        throw new Error('the stem no longer asks about burying survivors');
      return 'Survivors are not buried';
    }),
  }),
  item({
    id: 'trap-months-28-days',
    category: 'attention',
    stem: 'How many months of the year have at least 28 days?',
    alternate: 'In a calendar year, how many of the months contain 28 days or more?',
    options: ['1', '2', '6', '12'],
    key: 'D',
    rule: code('count the months of 2023 and 2024 with at least 28 days', () => {
      const count = (year: number) =>
        Array.from({ length: 12 }, (_, m) => new Date(Date.UTC(year, m + 1, 0)).getUTCDate()).filter(
          (d) => d >= 28,
        ).length;
      if (count(2023) !== count(2024)) throw new Error('leap years change the count');
      return count(2023);
    }),
  }),
  item({
    id: 'trap-fourth-child',
    category: 'attention',
    stem: `${family.child}'s mother has four children. Three of them are named ${family.named.slice(0, -1).join(', ')} and ${family.named.at(-1)}. What is the name of the fourth child?`,
    alternate: `${family.child}'s mum has four kids: ${family.named.join(', ')}, and one more. What is the fourth kid called?`,
    options: ['Winter', 'Tessa', 'Fall', 'It cannot be known'],
    key: 'B',
    rule: code('the child the question names, who is none of the three', () => {
      if (family.named.includes(family.child)) throw new Error(`${family.child} is one of the three named`);
      return family.child;
    }),
  }),
  item({
    id: 'trap-straw-bricks',
    category: 'attention',
    stem: `Which is heavier: ${weights.strawKg} kilograms of straw or ${weights.bricksKg} kilograms of bricks?`,
    alternate: `${weights.bricksKg} kilograms of bricks and ${weights.strawKg} kilograms of straw: which weighs more?`,
    options: ['The straw', 'The bricks', 'They weigh the same', 'It depends on the volume'],
    key: 'C',
    rule: code('compare the stated masses', () =>
      weights.strawKg === weights.bricksKg
        ? 'They weigh the same'
        : weights.strawKg > weights.bricksKg
          ? 'The straw'
          : 'The bricks',
    ),
  }),
  item({
    id: 'trap-divide-by-half',
    category: 'attention',
    stem: `Divide ${halves.start} by half and then add ${halves.add}. What is the result?`,
    alternate: `Take ${halves.start}, divide it by one half, then add ${halves.add}. What number do you get?`,
    options: ['25', '40', '50', '70'],
    key: 'D',
    rule: { kind: 'arithmetic', expression: `${halves.start} / ${halves.divisor} + ${halves.add}` },
  }),
  item({
    id: 'trap-tablets',
    category: 'attention',
    stem: `You are given ${numberWord(tablets.count)} tablets and told to take one every ${tablets.everyMinutes} minutes, starting now. How many minutes pass between the first tablet and the last?`,
    alternate: `Starting immediately, you take one of your ${tablets.count} tablets every ${tablets.everyMinutes} minutes. How many minutes is it from the first tablet to the last one?`,
    options: ['40', '60', '80', '100'],
    key: 'B',
    rule: { kind: 'arithmetic', expression: `(${tablets.count} - 1) * ${tablets.everyMinutes}` },
  }),
];

/** The 32 built-in items, logic first, then quantitative, knowledge and attention traps. */
export const BUILTIN_MC_ITEMS: readonly McItem[] = [...LOGIC, ...QUANTITATIVE, ...KNOWLEDGE, ...ATTENTION];
