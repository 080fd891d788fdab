import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Command, Option } from 'commander';
import { deprecatedFlag } from '../command-kit/options.js';
import { emit, withAbort } from '../command-kit/output.js';
import { createProgress } from '../command-kit/progress.js';
import type { WaverConfig } from '../config/schema.js';
import { DownloadError } from '../hub/download.js';
import type { ProtocolModule, RegistryContext } from '../protocols/adapters.js';
import { endOfRun } from '../protocols/execute.js';
import { reportedProtocols } from '../report/reported-protocols.js';
import { formatRunSummary } from '../report/run-summary.js';
import { type RunResult, runSuite } from '../run/run-suite.js';
import { suiteOf } from '../run/suite.js';
import type { Progress, SuiteTest } from '../run/types.js';
import { openStore } from '../store/store.js';
import { DEMO_PHRASING_NAMES, DEMO_QUESTIONS, DEMO_SYSTEM_PROMPT } from './questions.js';
import { type DemoTestMeta, formatDemoReport } from './report.js';

/**
 * The model the demo uses when neither `--model` nor WAVER_MODEL names one: a small instruct model
 * that runs on a laptop CPU (about 400 MB, downloaded once into the cache).
 */
export const DEFAULT_DEMO_MODEL = 'gguf:hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf';

/** Items of the built-in multiple-choice set the demo's paraphrase pass asks (x 5 phrasings x 2 repeats). */
const DEMO_PARAPHRASE_ITEMS = 4;

export function demoCommand(ctx: RegistryContext): Command {
  return new Command('demo')
    .description(
      'a small end-to-end pass on built-in items: word problems asked three ways, a short paraphrase (SAA) run, and the HTML report',
    )
    .option(
      '--models <spec>',
      'model to test (default: env WAVER_MODEL, else the Qwen2.5 0.5B Instruct q4_k_m GGUF from the Hugging Face Hub)',
    )
    .addOption(new Option('--model <spec>').hideHelp())
    .option('--store <file>', 'SQLite store', '.waver/store.db')
    .addOption(new Option('--format <format>', 'summary format').choices(['md', 'json']).default('md'))
    .option('--no-cache', 'call the model even when answers are stored')
    .action(
      async (opts: { models?: string; model?: string; store: string; format: string; cache: boolean }) => {
        if (opts.model !== undefined) deprecatedFlag('--model', '--models');
        const model = opts.models ?? opts.model ?? process.env.WAVER_MODEL ?? DEFAULT_DEMO_MODEL;
        const config = ctx.config.resolve({
          flags: {
            models: [model],
            store: opts.store,
            format: opts.format as 'md' | 'json',
            cache: opts.cache,
            params: { temperature: 0, maxTokens: 160 },
          },
        });
        try {
          process.exitCode = await runDemo(config, ctx);
        } catch (e) {
          // The download's advice names a model spec; the demo takes its model from these two.
          if (e instanceof DownloadError)
            throw new DownloadError(
              `${e.message}; for the demo, set WAVER_MODEL=gguf:/path/to/file.gguf or pass --models gguf:/path/to/file.gguf`,
            );
          throw e;
        }
      },
    );
}

/** The three steps, each read back from the store; returns the exit code. */
async function runDemo(config: WaverConfig, ctx: RegistryContext): Promise<number> {
  const { onProgress, finish } = progressLine();

  // 1. The same word problem asked three ways: does the answer waver?
  const suite = suiteOf('builtin:demo', demoTests());
  const ran: RunResult[] = [];
  const onRunEnd = (r: RunResult) => ran.push(r);
  const run = await withAbort((signal) => runSuite(config, suite, { signal, onProgress, onRunEnd }));
  finish();
  // Stopped: the next steps are not started, and the closing line says how to resume.
  if (run.summary.aborted) {
    emit(formatRunSummary(run, config.format));
    return endOfRun({ aborted: true, complete: false, runs: [run] }, ran, config.cache);
  }
  const store = openStore(config.store);
  let wavering: string;
  try {
    wavering = formatDemoReport(store, suite, config.format);
  } finally {
    store.close();
  }

  // 2. A short paraphrase run: multiple-choice items x five phrasings x two repeats (SAA, flips).
  const paraphraseConfig = {
    ...config,
    params: { ...config.params, maxTokens: 48 },
    paraphrase: { limit: DEMO_PARAPHRASE_ITEMS },
  };
  const protocol = paraphraseOf(ctx);
  const items = await protocol.build(paraphraseConfig);
  const paraphrase = await withAbort((signal) =>
    protocol.run(paraphraseConfig, items, { signal, onProgress, onRunEnd }),
  );
  finish();
  const paraphraseText = (await protocol.summary(paraphrase, items, config.format)) ?? '';

  // 3. The HTML report of everything in the store, beside it.
  const reportPath = await writeDemoReport(config, ctx);
  emitDemo(config, { run, wavering, paraphraseText, reportPath });
  return endOfRun(
    {
      aborted: paraphrase.aborted,
      complete: run.complete && paraphrase.complete,
      runs: [run, ...paraphrase.runs],
    },
    ran,
    config.cache,
  );
}

/** The progress line on stderr, shared by the steps: each step's last state is printed when it ends. */
function progressLine() {
  const progress = createProgress(process.stderr);
  let last: Progress | undefined;
  return {
    onProgress: (p: Progress) => {
      last = p;
      progress.update(p);
    },
    finish: () => {
      if (last) progress.finish(last);
      last = undefined;
    },
  };
}

/** The HTML report of the store, written beside it; its path. */
async function writeDemoReport(config: WaverConfig, ctx: RegistryContext): Promise<string> {
  const reportPath = join(dirname(config.store), 'report.html');
  const [{ buildReport }, { renderReport }, protocols] = await Promise.all([
    import('../report/report-data.js'),
    import('../report/formats.js'),
    reportedProtocols(ctx.protocols),
    (await import('../report/vega-runtime.js')).loadCharting(),
  ]);
  const reportStore = openStore(config.store);
  try {
    mkdirSync(dirname(reportPath), { recursive: true });
    writeFileSync(reportPath, renderReport(buildReport(reportStore, protocols), 'html', protocols));
  } finally {
    reportStore.close();
  }
  return reportPath;
}

/** What the demo found, as one JSON object or as text with the next steps. */
function emitDemo(
  config: WaverConfig,
  out: { run: RunResult; wavering: string; paraphraseText: string; reportPath: string },
): void {
  if (config.format === 'json') {
    emit(
      `${JSON.stringify(
        {
          run: JSON.parse(formatRunSummary(out.run, 'json')),
          wavering: JSON.parse(out.wavering),
          paraphrase: JSON.parse(out.paraphraseText),
          report: out.reportPath,
        },
        null,
        2,
      )}\n`,
    );
    return;
  }
  emit(formatRunSummary(out.run, 'md'));
  emit(out.wavering);
  emit(`\n${out.paraphraseText}`);
  emit(
    `\nreport: ${out.reportPath} (open it in a browser; \`waver view --store ${config.store}\` serves it)\n` +
      'Next: `waver ladder`, `waver sago` and `waver paraphrase` run the full protocols on the same model.\n',
  );
}

/** The paraphrase protocol of the registry the demo is handed: its second step runs it as `waver paraphrase` does. */
function paraphraseOf(ctx: RegistryContext): ProtocolModule {
  const protocol = ctx.protocols.find((p) => p.name === 'paraphrase');
  if (!protocol) throw new Error('the demo needs the paraphrase protocol, which is not registered');
  return protocol;
}

function demoTests(): SuiteTest<DemoTestMeta>[] {
  return DEMO_QUESTIONS.flatMap((q) =>
    q.phrasings.map((prompt, i) => {
      const phrasing = DEMO_PHRASING_NAMES[i] ?? String(i);
      return {
        id: `${q.id}/${phrasing}`,
        prompt,
        system: DEMO_SYSTEM_PROMPT,
        meta: { item: q.id, phrasing, gold: q.gold },
      };
    }),
  );
}
