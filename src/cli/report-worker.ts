import { parentPort } from 'node:worker_threads';
import { withAdapters } from '../protocols/adapters.js';
import { PROTOCOLS } from '../protocols/index.js';
import { renderReport } from '../report/formats.js';
import { buildReport } from '../report/report-data.js';
import { reportedProtocols } from '../report/reported-protocols.js';
import { loadCharting } from '../report/vega-runtime.js';
import { readStore } from '../store/store.js';
import { serveRequests } from '../view/worker-client.js';

/**
 * The thread `waver view` builds store reports in (view/worker-client.ts), so that its own event
 * loop stays free while a large report is built. An entry point of its own, like main.ts: it
 * hands the report the registry's protocols (docs/architecture.md).
 */
const protocols = await reportedProtocols(await withAdapters(PROTOCOLS));
await loadCharting();
if (parentPort)
  serveRequests(parentPort, (body) =>
    readStore((body as { path: string }).path, (store) =>
      renderReport(buildReport(store, protocols), 'html', protocols),
    ),
  );
