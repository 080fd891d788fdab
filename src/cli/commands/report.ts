import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { Command, Option } from 'commander';
import { InputError } from '../../errors.js';
import { type CliContext, reportedProtocols } from '../context.js';
import { EXIT } from '../output.js';

const FORMATS = ['html', 'md', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

const BY_EXTENSION: Record<string, Format> = {
  '.html': 'html',
  '.htm': 'html',
  '.md': 'md',
  '.markdown': 'md',
  '.json': 'json',
  '.csv': 'csv',
};

/** The format asked for, else the one `--out`'s extension names, else html. */
export function reportFormat(format: string | undefined, out: string | undefined): Format {
  if (format !== undefined) return format as Format;
  if (out === undefined) return 'html';
  const ext = extname(out).toLowerCase();
  const inferred = BY_EXTENSION[ext];
  if (!inferred)
    throw new InputError(
      `cannot tell the report format from '${ext || out}': name the file .html, .md, .json or .csv, or pass --format`,
      { field: '--out' },
    );
  return inferred;
}

/**
 * `waver report`: the report of everything in a store — one self-contained HTML file with charts
 * and a transcript browser, or the same content as Markdown or JSON, or one CSV row per cell
 * (docs/report.md). Reads the store only; makes no model call.
 */
export function reportCommand(ctx: CliContext): Command {
  return new Command('report')
    .description(
      'write a report of a store: self-contained HTML (charts, tables, transcript browser), Markdown, JSON, or CSV (one row per cell)',
    )
    .option('--store <file>', 'SQLite store', '.waver/store.db')
    .option('--out <file>', 'output file (default: stdout); its extension picks the format')
    .addOption(
      new Option('--format <format>', 'html, md, json or csv (default: from --out, else html)').choices(
        FORMATS,
      ),
    )
    .option('--no-ablations', "skip SAGO's ablations (the slowest part of a large report)")
    .action(async (opts: { store: string; out?: string; format?: Format; ablations: boolean }) => {
      // Checked before anything is opened: a mistyped path must not create an empty store.
      if (!existsSync(opts.store)) throw new InputError('store not found', { file: opts.store });
      const format = reportFormat(opts.format, opts.out);
      // Loaded here, not at the top: vega takes half a second to import, and every other command would pay it.
      const [{ openStore }, { buildReport }, { renderReport }, protocols] = await Promise.all([
        import('../../store/store.js'),
        import('../../report/report-data.js'),
        import('../../report/formats.js'),
        reportedProtocols(ctx.protocols),
      ]);
      const started = performance.now();
      // Read-only: a report writes nothing, and works on a store this user may not write.
      const store = openStore(opts.store, { readonly: true });
      let text: string;
      let summary: string;
      try {
        const data = buildReport(store, protocols, { ablations: opts.ablations });
        text = renderReport(data, format, protocols);
        summary = `${data.sections.length} protocol section${data.sections.length === 1 ? '' : 's'}, ${data.cells.length} cells`;
      } finally {
        store.close();
      }
      if (opts.out) {
        mkdirSync(dirname(opts.out), { recursive: true });
        writeFileSync(opts.out, text);
        const size = Buffer.byteLength(text);
        process.stderr.write(
          `waver: wrote ${opts.out} (${format}, ${(size / 1e6).toFixed(2)} MB: ${summary}) in ${((performance.now() - started) / 1000).toFixed(2)} s\n`,
        );
      } else process.stdout.write(text);
      process.exitCode = EXIT.ok;
    });
}
