/**
 * vega and vega-lite, loaded once with `import()` before a report draws its charts. Both are ES
 * modules with top-level await (vega-canvas's), which the CLI's CommonJS bundle cannot `require()`
 * (docs/decisions.md E41, "The code cache"), so whatever renders an HTML report awaits
 * `loadCharting()` first; the charts then draw synchronously.
 */
import type * as Vega from 'vega';
import type * as VegaLite from 'vega-lite';
import { importCharting } from './charting-import.js';

interface Charting {
  vega: typeof Vega;
  vegaLite: typeof VegaLite;
}

let loaded: Charting | undefined;

export async function loadCharting(): Promise<void> {
  if (loaded !== undefined) return;
  loaded = await importCharting();
}

/** The loaded packages; a chart drawn before `loadCharting()` is waver's bug, said as such. */
export function charting(): Charting {
  if (loaded === undefined) throw new Error('internal: a chart drawn before loadCharting()');
  return loaded;
}
