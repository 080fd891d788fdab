import { describe, expect, it } from 'vitest';
import { GRADE_SCHOOL_SEEDS } from './grade-school.js';

/** The numbers of a question in reading order (thousands separators removed). */
function numbersIn(text: string): number[] {
  return (text.match(/\d+(?:,\d{3})*(?:\.\d+)?/g) ?? []).map((m) => Number(m.replace(/,/g, '')));
}

// Each key recomputed from the numbers as they appear in the question text, written here
// independently of the source's quantity objects: a wording edit that changes a number, or a
// formula slip in the source, makes this test fail.
type Numbers = [number, number, number, number, number];

const RECOMPUTE: Record<string, (n: Numbers) => number> = {
  'bakery-muffins': ([a, b, c, d]) => a * b - c - d,
  'library-shelves': ([a, b, c, d]) => a * b - c + d,
  'pencil-share': ([a, b, c]) => (a * b) / c,
  'train-trip': ([a, b, c, d]) => a * b + c * d,
  'lemonade-profit': ([a, b, c]) => a * b - c,
  'garden-fence': ([l, w, p]) => (l + l + w + w) * p,
  aquarium: ([g, t, f]) => g + g * t + g * t - f,
  'marble-bags': ([a, b, c, d]) => (a - b + c) / d,
  'field-trip-buses': ([a, b, c]) => Math.ceil((a + b) / c),
  'pizza-slices': ([a, b, c, d]) => a * b - (c + d),
  'bike-savings': ([p, s, w]) => (p - s) / w,
  'cookie-flour': ([c, b, w]) => (w / b) * c,
  'concert-change': ([a, c, na, nc, paid]) => paid - a * na - c * nc,
  'water-tank': ([cap, have, rate]) => (cap - have) / rate,
  'reading-pages': ([mon, wed, book]) => book - mon * 3 - wed,
  'egg-cartons': ([eggs, per, price]) => ((eggs - (eggs % per)) / per) * price,
  'jacket-sale': ([price, pct, coupon]) => (price * (100 - pct)) / 100 - coupon,
  'track-laps': ([m, laps, days]) => (m / 1000) * laps * days,
  'hall-chairs': ([r, p, t, a]) => r * p - (t + a),
  'stamp-museum': ([k, more, given]) => 2 * k + more - given,
  'car-wash': ([car, truck, nc, nt, wages]) => car * nc + truck * nt - wages,
  'weekly-pay': ([h, d, r, w]) => h * d * w * r,
  'card-packs': ([per, packs, dup]) => per * packs - dup,
  'bread-batches': ([m, r, b, n]) => (n * (m + r + b)) / 60,
  'apple-pies': ([apples, per, slices]) => Math.trunc(apples / per) * slices,
  'notebook-change': ([n, each, pen, bill]) => bill - n * each - pen,
  'paint-cans': ([l, h, cover, walls]) => Math.ceil((walls * l * h) / cover),
  'bike-shop-wheels': ([b, t, flat]) => b * 2 + t * 3 - flat,
  'fruit-basket': ([n]) => (n * 5) / 12,
  temperature: ([dawn, rise, hours, fall]) => dawn + rise * hours - fall,
  'test-average': ([a, b, c, d]) => (a + b + c + d) / 4,
  'cinema-sales': ([seats, pct, price]) => (seats * pct * price) / 100,
  'farm-legs': ([chickens, cows, more]) => chickens * 2 + (cows + more) * 4,
  'book-boxes': ([box, books, kg, boxes]) => boxes * box + boxes * books * kg,
  'phone-bill': ([base, per, incl, used]) => base + per * (used - incl),
  'family-ages': ([nora, times, older, years]) => nora * times + older + years,
  'cupcake-boxes': ([guests, each, box]) => Math.ceil((guests * each) / box),
  'stair-climb': ([steps, from, to]) => steps * (to - from),
  'can-drive': ([first, extra, weeks]) => weeks * first + (extra * weeks * (weeks - 1)) / 2,
  'floor-tiles': ([l, w, tile, price]) => (l / tile) * (w / tile) * price,
  'simple-interest': ([dep, rate, years]) => dep * (1 + (rate * years) / 100),
  'road-trip-gas': ([mpg, price, miles]) => (price * miles) / mpg,
  'candy-neighbour': ([friends, bags, per, eats]) => bags * per - friends * eats,
  'raffle-charities': ([t, p, d, prizes, c]) => (t * p + d - prizes) / c,
  'toy-machine': ([toys, minutes, hours]) => toys * ((hours * 60) / minutes),
  'team-lunch': ([s, d, players]) => s * players + d * players,
  'school-fair': ([raised, prizes, classes]) => (raised - prizes) / classes,
  'orchard-crates': ([trees, per, crate]) => Math.floor((trees * per) / crate),
};

describe('built-in grade-school seeds', () => {
  it('has at least 40 problems with unique ids and questions, all from the builtin source', () => {
    expect(GRADE_SCHOOL_SEEDS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(GRADE_SCHOOL_SEEDS.map((s) => s.id)).size).toBe(GRADE_SCHOOL_SEEDS.length);
    expect(new Set(GRADE_SCHOOL_SEEDS.map((s) => s.question)).size).toBe(GRADE_SCHOOL_SEEDS.length);
    for (const s of GRADE_SCHOOL_SEEDS) {
      expect(s.id).toMatch(/^builtin-[a-z-]+$/);
      expect(s.source).toBe('builtin');
      expect(s.question.trim().endsWith('?'), s.id).toBe(true);
    }
  });

  it('recomputes every key from the numbers in the question text', () => {
    const slugs = GRADE_SCHOOL_SEEDS.map((s) => s.id.replace(/^builtin-/, ''));
    expect(Object.keys(RECOMPUTE).sort()).toEqual([...slugs].sort());
    for (const s of GRADE_SCHOOL_SEEDS) {
      const slug = s.id.replace(/^builtin-/, '');
      const found = numbersIn(s.question);
      // Padded with NaN so a question that lost a number fails instead of reading `undefined`.
      const padded = [0, 1, 2, 3, 4].map((i) => found[i] ?? Number.NaN) as Numbers;
      const recomputed = RECOMPUTE[slug]?.(padded) ?? Number.NaN;
      // Cents: money keys are rounded to cents by the source, and float noise must not matter here.
      expect(Math.round(recomputed * 100) / 100, `${s.id}: ${s.question}`).toBe(s.gold);
    }
  });

  it('keeps keys positive and integer, except a few money answers in cents', () => {
    const nonInteger = GRADE_SCHOOL_SEEDS.filter((s) => !Number.isInteger(s.gold));
    for (const s of GRADE_SCHOOL_SEEDS) {
      expect(s.gold, s.id).toBeGreaterThan(0);
      expect(Math.round(s.gold * 100) / 100, s.id).toBe(s.gold);
    }
    expect(nonInteger.length).toBeGreaterThan(0);
    expect(nonInteger.length).toBeLessThanOrEqual(5);
    // A few problems carry money with cents or decimal quantities, as GSM8K does.
    expect(GRADE_SCHOOL_SEEDS.filter((s) => /\d\.\d/.test(s.question)).length).toBeGreaterThanOrEqual(5);
    expect(GRADE_SCHOOL_SEEDS.filter((s) => s.question.includes('$')).length).toBeGreaterThanOrEqual(10);
  });

  it('states each problem in 2 to 5 sentences with 2 or more numbers (multi-step problems)', () => {
    for (const s of GRADE_SCHOOL_SEEDS) {
      const sentences = s.question.split(/(?<=[.!?])\s+/).length;
      expect(sentences, s.id).toBeGreaterThanOrEqual(2);
      expect(sentences, s.id).toBeLessThanOrEqual(5);
      // fruit-basket is the one problem whose other quantities are fractions written in words.
      if (s.id !== 'builtin-fruit-basket')
        expect(numbersIn(s.question).length, s.id).toBeGreaterThanOrEqual(2);
    }
  });
});
