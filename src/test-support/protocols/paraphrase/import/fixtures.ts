import { fileURLToPath } from 'node:url';

/**
 * Outputs of real runs made here (docs/import.md#fixtures): lm-evaluation-harness 0.4.13 with
 * `--log_samples` against `waver serve` over the two tiny models (`bench/clients/lm-eval-import.py`;
 * the task YAMLs and the dataset in `lm-eval/tasks/`), and promptfoo 0.123.1's `eval -o` against the
 * same (`bench/clients/promptfoo-import/`: its config, the script, the trim that keeps the file small).
 */
export const LM_EVAL_RUNS = fileURLToPath(new URL('./lm-eval', import.meta.url));
export const PROMPTFOO_RESULTS = fileURLToPath(new URL('./promptfoo/results.json', import.meta.url));
