import { createWriteStream, existsSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Command } from 'commander';
import { findSuite } from '../../check/suites.js';
import { InputError } from '../../errors.js';
import { exportTranscripts } from '../../run/export.js';
import { openStore } from '../../store/store.js';

export function exportCommand(): Command {
  return new Command('export')
    .description('write every stored cell (request, response or error, attempts) as JSONL transcripts')
    .option('--store <file>', 'SQLite store', '.waver/store.db')
    .option('--out <file>', 'output file (default: stdout)')
    .option('--suite <hash>', 'only this suite (its sha256 or an 8+ character prefix)')
    .option('--model <label>', 'only this model label')
    .action(async (opts: { store: string; out?: string; suite?: string; model?: string }) => {
      if (!existsSync(opts.store)) throw new InputError('store not found', { file: opts.store });
      const store = openStore(opts.store, { readonly: true });
      try {
        // Named filters must name something: a typo would otherwise export nothing and pass.
        const suiteHash = opts.suite === undefined ? undefined : findSuite(store, opts.suite).hash;
        if (opts.model !== undefined) {
          const labels = store.modelLabels(suiteHash);
          if (!labels.includes(opts.model))
            throw new InputError(
              `no model '${opts.model}' in ${suiteHash ? `suite ${suiteHash.slice(0, 12)}` : 'the store'} (its models: ${labels.join(', ') || 'none'})`,
              { field: '--model', file: opts.store },
            );
        }
        const out: NodeJS.WritableStream = opts.out ? createWriteStream(opts.out) : process.stdout;
        for (const record of exportTranscripts(store, { suiteHash, model: opts.model })) {
          if (!out.write(`${JSON.stringify(record)}\n`))
            await new Promise((r) => out.once('drain', () => r(undefined)));
        }
        if (out !== process.stdout) {
          out.end();
          await finished(out);
        }
      } finally {
        store.close();
      }
    });
}
