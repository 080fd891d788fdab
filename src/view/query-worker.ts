import { parentPort } from 'node:worker_threads';
import { type TranscriptQuery, transcriptPage } from './transcripts.js';
import { serveRequests } from './worker-client.js';

/** The viewer's query thread (worker-client.ts): transcript pages, read from the stores read-only. */
if (parentPort) serveRequests(parentPort, (body) => transcriptPage(body as TranscriptQuery));
