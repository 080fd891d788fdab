import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { Command, Option } from 'commander';
import { EXIT, writeOutput } from '../../command-kit/output.js';
import { InputError } from '../../errors.js';
import type { RegistryContext } from '../../protocols/adapters.js';
import { reportedProtocols } from '../../report/reported-protocols.js';
import { storeNotFound } from '../../store/not-found.js';

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

/** Where `waver report` with neither `--out` nor `--format` writes: a 1 MB page is not for a terminal. */
export const DEFAULT_REPORT_OUT = '.waver/report.html';

/** The file to write, or undefined for stdout: `--out -` is stdout, and so is `--format` without `--out`. */
export function reportOut(out: string | undefined, format: string | undefined): string | undefined {
  if (out === '-') return undefined;
  return out ?? (format === undefined ? DEFAULT_REPORT_OUT : undefined);
}

/**
 * `waver report`: the report of everything in a store — one self-contained HTML file with charts
 * and a transcript browser, or the same content as Markdown or JSON, or one CSV row per cell
 * (docs/report.md). Reads the store only; makes no model call.
 */
export function reportCommand(ctx: RegistryContext): Command {
  return new Command('report')
    .description(
      'write a report of a store: self-contained HTML (charts, tables, transcript browser), Markdown, JSON, or CSV (one row per cell)',
    )
    .option('--store <file>', 'SQLite store', '.waver/store.db')
    .option(
      '--out <file>',
      `output file; its extension picks the format (default: ${DEFAULT_REPORT_OUT}, or stdout when --format is given; - for stdout)`,
    )
    .addOption(
      new Option('--format <format>', 'html, md, json or csv (default: from --out, else html)').choices(
        FORMATS,
      ),
    )
    .option('--no-ablations', "skip SAGO's ablations (the slowest part of a large report)")
    .option('--run <id>', 'report one eval: the suite of the run whose id starts with this')
    .option('--suite <prefix>', 'report one eval: the suite whose sha256 starts with this')
    .addHelpText(
      'after',
      '\nExamples:\n  # .waver/store.db -> .waver/report.html\n  $ waver report\n  # one eval: the run whose id starts with 3f2a\n  $ waver report --run 3f2a\n  # Markdown, the format from the extension\n  $ waver report --store runs.db --out r.md\n  # JSON on stdout\n  $ waver report --format json > r.json\n',
    )
    .action(async (flags: ReportFlags) => {
      await writeStoreReport(ctx, flags);
      process.exitCode = EXIT.ok;
    });
}

async function writeStoreReport(ctx: RegistryContext, flags: ReportFlags): Promise<void> {
  if (flags.run !== undefined && flags.suite !== undefined)
    throw new InputError('give --run or --suite, not both', { field: '--suite' });
  const opts = { ...flags, out: reportOut(flags.out, flags.format) };
  // Checked before anything is opened: a mistyped path must not create an empty store.
  if (!existsSync(opts.store)) throw storeNotFound(opts.store, '--store');
  const format = reportFormat(opts.format, opts.out);
  // Loaded here, not at the top: vega takes half a second to import, and every other command would pay it.
  const [{ readStore }, { buildReport }, { writeReport }, protocols] = await Promise.all([
    import('../../store/store.js'),
    import('../../report/report-data.js'),
    import('../../report/formats.js'),
    reportedProtocols(ctx.protocols),
    format === 'html' ? (await import('../../report/vega-runtime.js')).loadCharting() : undefined,
  ]);
  const started = performance.now();
  // Written as it is made (the JSON and CSV of a large store hold every cell), whole or not at all.
  const out = opts.out;
  let summary = '';
  // Read-only: a report writes nothing, and works on a store this user may not write.
  const size = await readStore(opts.store, (store) =>
    // Built once the output is open: a --out that cannot be written is said before the build.
    writeOutput(out, (write) => {
      const only = onlyOf(opts);
      const data = buildReport(store, protocols, { ablations: opts.ablations, ...(only && { only }) });
      writeReport(data, format, protocols, write);
      const t = data.transcripts;
      summary = `${data.sections.length} eval${data.sections.length === 1 ? '' : 's'}, ${t.total} cells${t.sampled && format === 'html' ? ` (${t.shown} in the page)` : ''}`;
    }),
  );
  if (out)
    process.stderr.write(
      `waver: wrote ${out} (${format}, ${(size / 1e6).toFixed(2)} MB: ${summary}) in ${((performance.now() - started) / 1000).toFixed(2)} s\n`,
    );
}

/** The one eval `--run` or `--suite` asks for, if any. */
function onlyOf(opts: Pick<ReportFlags, 'run' | 'suite'>): { run?: string; suite?: string } | undefined {
  if (opts.run === undefined && opts.suite === undefined) return undefined;
  return {
    ...(opts.run !== undefined && { run: opts.run }),
    ...(opts.suite !== undefined && { suite: opts.suite }),
  };
}

interface ReportFlags {
  store: string;
  out?: string;
  format?: Format;
  ablations: boolean;
  run?: string;
  suite?: string;
}
