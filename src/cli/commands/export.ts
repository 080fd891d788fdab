import { createWriteStream, existsSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Command } from 'commander';
import { InputError } from '../../errors.js';
import { exportTranscripts } from '../../run/export.js';
import { openStore } from '../../store/store.js';

export function exportCommand(): Command {
  return new Command('export')
    .description('write every stored cell (request, response or error, attempts) as JSONL transcripts')
    .option('--store <file>', 'SQLite store', '.waver/store.db')
    .option('--out <file>', 'output file (default: stdout)')
    .option('--suite <hash>', 'only this suite (its sha256)')
    .option('--model <label>', 'only this model label')
    .action(async (opts: { store: string; out?: string; suite?: string; model?: string }) => {
      if (!existsSync(opts.store)) throw new InputError('store not found', { file: opts.store });
      const store = openStore(opts.store);
      try {
        const out: NodeJS.WritableStream = opts.out ? createWriteStream(opts.out) : process.stdout;
        for (const record of exportTranscripts(store, { suiteHash: opts.suite, model: opts.model })) {
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
