import { Command } from 'commander';
import { resolveConfig } from '../../config/load.js';
import {
  DEMO_PHRASING_NAMES,
  DEMO_QUESTIONS,
  DEMO_SYSTEM_PROMPT,
} from '../../data/builtin/demo-questions.js';
import { formatDemoReport } from '../../report/demo-report.js';
import { openStore } from '../../run/store.js';
import type { SuiteTest } from '../../run/types.js';
import { suiteOf } from '../../suite/plain.js';
import { EXIT, emit } from '../output.js';
import { executeRun } from './run.js';

/**
 * The model the demo uses when neither `--model` nor WAVER_MODEL names one: a small instruct model
 * that runs on a laptop CPU (about 400 MB, downloaded once into the cache).
 */
export const DEFAULT_DEMO_MODEL = 'gguf:hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf';

export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'a small end-to-end pass on built-in items: each question asked three ways; does the answer waver?',
    )
    .option('--model <spec>', `model to test (default: env WAVER_MODEL, else ${DEFAULT_DEMO_MODEL})`)
    .option('--store <file>', 'SQLite store', '.waver/store.db')
    .option('--format <format>', 'md or json', 'md')
    .option('--no-cache', 'call the model even when answers are stored')
    .action(async (opts: { model?: string; store: string; format: string; cache: boolean }) => {
      const model = opts.model ?? process.env.WAVER_MODEL ?? DEFAULT_DEMO_MODEL;
      const config = resolveConfig({
        flags: {
          models: [model],
          store: opts.store,
          format: opts.format as 'md' | 'json',
          cache: opts.cache,
          params: { temperature: 0, maxTokens: 160 },
        },
      });
      const suite = suiteOf('builtin:demo', demoTests());
      const code = await executeRun(config, suite);
      const store = openStore(config.store);
      try {
        emit(formatDemoReport(store, suite, config.format));
      } finally {
        store.close();
      }
      process.exitCode = code === EXIT.ok ? EXIT.ok : code;
    });
}

function demoTests(): SuiteTest[] {
  return DEMO_QUESTIONS.flatMap((q) =>
    q.phrasings.map((prompt, i) => ({
      id: `${q.id}/${DEMO_PHRASING_NAMES[i]}`,
      prompt,
      system: DEMO_SYSTEM_PROMPT,
      meta: { item: q.id, phrasing: DEMO_PHRASING_NAMES[i], gold: q.gold },
    })),
  );
}
