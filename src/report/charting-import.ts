/**
 * vega and vega-lite, imported: two ES-module packages of some forty modules (d3's among them).
 * The CLI's bundle swaps this module for one that imports both from one prebuilt file,
 * `dist/bin/charting.mjs` (scripts/bundle-cli.mjs): resolving and linking forty packages' modules
 * costs a report ~150 ms more than reading one file (docs/decisions.md E101).
 */
import type * as Vega from 'vega';
import type * as VegaLite from 'vega-lite';
import { importModule } from '../util/import-module.js';

export async function importCharting(): Promise<{ vega: typeof Vega; vegaLite: typeof VegaLite }> {
  const [vega, vegaLite] = await Promise.all([
    importModule<typeof Vega>('vega'),
    importModule<typeof VegaLite>('vega-lite'),
  ]);
  return { vega, vegaLite };
}
