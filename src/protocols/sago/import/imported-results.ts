import type { Store } from '../../../store/store.js';
import type { SagoManifest } from '../manifest.js';
import type { SagoTables } from '../result-types.js';

export function importedResults(_store: Store, _suiteHash: string, _manifest: SagoManifest): SagoTables {
  throw new Error('not yet');
}
