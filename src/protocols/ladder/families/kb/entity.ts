/**
 * KB L4, the fabricated entity (docs/ladder-families.md#kb-l4): a given is replaced by a property
 * of an invented thing that would be public, fixed knowledge if the thing existed, of the same
 * kind as the given: a distance by the length of a trail or a bridge, a height by a tower's, a
 * count of people by the seats of a venue, a duration by a film's running time or a train's
 * timetable, a product's price by a model's list price. So the only obstacle is that it does not
 * exist. A blind read (v6) rejected the comparison with a person ("10 more ... than the explorer
 * Ida Vellmont"): a private person's count would be just as missing if she were real (L1 with a
 * name attached), and a person set against an ice cube's ounces is no comparison at all.
 * Anything else (a private count of things, a rate, a weight) gets no L4.
 */

import type { PyRandom } from '../../../../util/random.js';
import { LEX_FILE, synsets } from '../../text/wordnet.js';

/** Invented names: none a real venue, trail, film or brand the reviewer would know. */
const NAMES = [
  'Brennick',
  'Harwood',
  'Vellmont',
  'Calloway',
  'Quarrington',
  'Ostrey',
  'Pellbrook',
  'Stavenholt',
  'Quillby',
  'Fenwright',
  'Yarrowby',
  'Kestleford',
  'Morrowdale',
  'Tillingsby',
  'Hasketh',
  'Corrington',
  'Ellisford',
  'Brackwater',
  'Gorsedge',
  'Ashgrove',
];

/** What the amount and its clause are, as the rules read them (rules.ts, InPlace). */
export interface EntityInput {
  amount: string;
  kind: 'count' | 'money';
  /** The rest of the amount's clause (" miles a day", " students in the class"). */
  clause: string;
  /** The sentence up to the amount ("A stapler costs "). */
  lead: string;
  /** The head noun of the clause's subject when it is a thing ("stapler"). */
  thing: string | undefined;
}

type Writer = (name: string, n: number, unit: string, rest: string, rng: PyRandom) => string | undefined;

/** Places whose length is published, by the unit a distance is given in. */
const LONG_MILES = ['Trail', 'Canal', 'Scenic Byway', 'Greenway'];
const LONG_SHORT = ['Bridge', 'Pier', 'Tunnel', 'Footbridge'];

/** "5 miles a day" -> "the length of the Harwood Trail each day"; "300 meters" -> "... Pier". */
const distance: Writer = (name, n, unit, rest, rng) => {
  if (!plainRest(rest)) return undefined;
  // A bridge, a pier or a tunnel is tens of meters at least: "1.5 feet between every plant" has none.
  if (!/^(?:miles|kilometers|km)$/.test(unit) && n < 60) return undefined;
  if (/^ long\b/.test(rest)) {
    const place = /^(?:miles|kilometers|km)$/.test(unit) ? rng.choice(LONG_MILES) : rng.choice(LONG_SHORT);
    return `as long as the ${name} ${place}${rest.replace(/^ long/, '')}`;
  }
  const place = /^(?:miles|kilometers|km)$/.test(unit) ? rng.choice(LONG_MILES) : rng.choice(LONG_SHORT);
  if (/^(?:miles|kilometers|km)$/.test(unit) && n > 400) return undefined;
  const frames = [
    `the length of the ${name} ${place}`,
    `as many ${unit} as the ${name} ${place} is long`,
    `the full length of the ${name} ${place}`,
  ];
  return `${rng.choice(frames)}${rate(rest)}`;
};

/** "60 feet tall" -> "as tall as the Harwood Clock Tower". */
const height: Writer = (name, _n, _unit, rest, rng) => {
  if (!/^ tall\b/.test(rest)) return undefined;
  const place = rng.choice(['Clock Tower', 'Lighthouse', 'Water Tower', 'Monument']);
  return `${rng.choice(['as tall as the', 'the same height as the'])} ${name} ${place}${rest.replace(/^ tall/, '')}`;
};

/** A venue seating about as many people as the count, so the problem's world stays plausible. */
function venue(n: number, rng: PyRandom): string {
  if (n >= 2000) return rng.choice(['Arena', 'Stadium', 'Speedway grandstand']);
  if (n >= 150) return rng.choice(['Theatre', 'Concert Hall', 'Auditorium', 'Opera House']);
  if (n >= 20) return rng.choice(['Playhouse', 'Lecture Hall', 'Chapel', 'Cinema screen 2']);
  return '';
}

/** "30 students in the class" -> "as many students in the class as the Brennick Lecture Hall seats". */
const people: Writer = (name, n, unit, rest, rng) => {
  const place = venue(n, rng);
  if (place === '') return undefined;
  const frames = [
    `as many ${unit}${rest} as the ${name} ${place} seats`,
    `as many ${unit}${rest} as there are seats in the ${name} ${place}`,
    `as many ${unit}${rest} as the ${name} ${place} has seats`,
  ];
  return rng.choice(frames);
};

/** A film's running time (minutes) or a train's scheduled journey (hours): published figures. */
const duration: Writer = (name, n, unit, rest, rng) => {
  const title = `The ${name} ${rng.choice(['Letters', 'Affair', 'Crossing', 'Inheritance', 'Lighthouse'])}`;
  if (!plainRest(rest)) return undefined;
  rest = rest.replace(/^ long\b/, '');
  if (/^minutes?$/.test(unit) && n >= 20 && n < 70) {
    const series = `the series The ${name} ${rng.choice(['Files', 'Inquiries', 'Years', 'House'])}`;
    return `${rng.choice([`as long as an episode of ${series}`, `the running time of one episode of ${series}`])}${rate(rest)}`;
  }
  if (/^minutes?$/.test(unit) && n >= 70 && n <= 240) {
    const frames = [
      `as many minutes as the film ${title} runs`,
      `the running time of the film ${title}`,
      `as long as the film ${title} runs`,
    ];
    return `${rng.choice(frames)}${rate(rest)}`;
  }
  if (/^hours?$/.test(unit) && n >= 2 && n <= 30) {
    const train = `the ${name} ${rng.choice(['Express', 'Night Sleeper', 'Coast Line'])}`;
    const frames = [
      `as many hours as ${train} takes from end to end`,
      `as long as the timetabled journey on ${train}`,
    ];
    return `${rng.choice(frames)}${rate(rest)}`;
  }
  return undefined;
};

/** "A stapler costs $12" -> "... costs the list price of the Calloway X-200 stapler". */
function price(p: EntityInput, name: string, rng: PyRandom): string | undefined {
  if (!/\b(?:costs?|priced at|sells? for|sold for)\s+$/i.test(p.lead) || p.thing === undefined)
    return undefined;
  if (p.clause.trim() !== '' && p.clause !== ' each') return undefined;
  if (synsets(p.thing, 'noun')[0]?.lexFile !== LEX_FILE.artifact) return undefined;
  const model = `${name} ${rng.choice(['X', 'K', 'Pro ', 'Series ', 'M', 'V'])}${rng.choice([20, 40, 200, 300, 7, 9, 12])}`;
  const frames = [
    `the list price of the ${model} ${p.thing}`,
    `the catalogue price of a ${model} ${p.thing}`,
    `the same as the ${model} ${p.thing} retails for`,
  ];
  return rng.choice(frames);
}

/** " a day" -> " each day": "the length of the Harwood Trail a day" reads as a measure per day. */
function rate(rest: string): string {
  return rest.replace(/^ (?:a|per) (day|week|month|year|night|morning|evening|session)\b/, ' each $1');
}

/**
 * What may follow the unit: nothing, a period ("a day") or a place or a purpose ("to school"), never
 * a rate of another unit ("miles per hour" is a speed, "minutes per mile" a pace) nor a width or a depth.
 */
function plainRest(rest: string): boolean {
  if (/^ (?:per|an?|each|every) /.test(rest))
    return /^ (?:per|an?|each|every) (?:day|week|month|year|night|morning|evening|session)\b/.test(rest);
  return !/^ (?:of|wide|deep|high|thick|away|apart|behind|ahead|more|less|farther|further)\b/.test(rest);
}

const PEOPLE =
  /^(?:people|students|spectators|fans|guests|visitors|attendees|passengers|pupils|children|kids|adults|members|runners|seats)$/;

/**
 * The amount and its clause as a fabricated entity's property of the same kind, or undefined where
 * none of the kind reads naturally (docs/ladder-families.md#kb-l4).
 */
export function fabricatedEntity(p: EntityInput, rng: PyRandom): string | undefined {
  const name = rng.choice(NAMES);
  if (p.kind === 'money') return price(p, name, rng);
  const n = Number(p.amount.replace(/,/g, ''));
  const [, unit = '', rest = ''] = /^ ([a-z]+)(.*)$/.exec(p.clause) ?? [];
  if (!Number.isFinite(n) || unit === '') return undefined;
  if (/^(?:miles|kilometers|km|meters|feet|yards)$/.test(unit))
    return /^ tall\b/.test(rest) ? height(name, n, unit, rest, rng) : distance(name, n, unit, rest, rng);
  if (/^(?:minutes|hours)$/.test(unit)) return duration(name, n, unit, rest, rng);
  if (PEOPLE.test(unit)) return people(name, n, unit, rest, rng);
  return undefined;
}
