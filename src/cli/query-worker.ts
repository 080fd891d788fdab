import { parentPort } from 'node:worker_threads';
import { withAdapters } from '../protocols/adapters.js';
import { PROTOCOLS } from '../protocols/index.js';
import { reportedProtocols } from '../report/reported-protocols.js';
import { type TranscriptQuery, transcriptPage } from '../view/transcripts.js';
import { serveRequests } from '../view/worker-client.js';

/**
 * The thread `waver view` reads transcript pages in (view/worker-client.ts), from the stores
 * read-only, so a search that reads far stays off the server's event loop. An entry point of its
 * own, like report-worker.ts: it hands the pages the registry's protocols, which score the cells
 * (docs/architecture.md).
 */
const protocols = await reportedProtocols(await withAdapters(PROTOCOLS));
if (parentPort) serveRequests(parentPort, (body) => transcriptPage(body as TranscriptQuery, protocols));
