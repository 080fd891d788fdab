import { PyRandom } from '../../util/random.js';
import { ACTIONS, applyDraw, type FormatChoice } from './grammar.js';

/**
 * FormatSpread's sampling of formats (`_sample_value_assignments` in their main.py): one
 * `random.choice` per action in order, rejected when the grammar refuses it, until `n` are kept;
 * seeded with CPython's generator, so `python3` with the same seed draws the same formats
 * (src/test-support/spread/python/sample_formats.py writes the committed fixture). Two departures
 * (docs/fidelity.md): the kept formats are in the order drawn (theirs come out of a Python set, in
 * hash order), and a draw whose format equals one kept is skipped (theirs keep distinct draws, and
 * draws that differ only in a refused value give the same prompt twice).
 */
export function sampleFormats(n: number, seed: number): FormatChoice[] {
  const rng = new PyRandom(seed);
  const draws = new Set<string>();
  const formats = new Map<string, FormatChoice>();
  // The grammar admits about 10^7 formats; the cap only stops a request for more than that.
  for (let tries = 0; formats.size < n && tries < 1000 * n + 10_000; tries++) {
    const draw = ACTIONS.map((a) => {
      const i = rng.randbelow(a.values.length);
      return a.values.indexOf(a.values[i] as never);
    });
    const key = draw.join(',');
    if (draws.has(key)) continue;
    const format = applyDraw(draw);
    if (!format) continue;
    draws.add(key);
    const same = JSON.stringify(format);
    if (!formats.has(same)) formats.set(same, format);
  }
  return [...formats.values()];
}
