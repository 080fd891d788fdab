import { Command } from 'commander';
import { addExamples, commandFlags } from '../../command-kit/options.js';
import type { ProtocolCommand } from '../adapters.js';
import { executeProtocol, runView } from '../execute.js';
import type { RunOutcome } from '../types.js';
import { SagoConfig } from './config.js';
import { promptSetsSize, type SagoPromptSets } from './prompt-sets.js';
import type { SagoResults } from './results.js';

/** Every setting of the `sago:` section, and every base flag. */
export const SAGO_FLAGS = commandFlags({ section: { key: 'sago', schema: SagoConfig } });

/**
 * `waver sago`: per-prompt instability of each model across meaning-preserving variations of
 * open-ended prompts, on every behavioural axis the model allows, with SGS and significance
 * (docs/sago.md). With no dataset it runs offline on waver's built-in questions.
 */
export const sagoCommand: ProtocolCommand<SagoPromptSets, SagoResults, RunOutcome<SagoResults>> = (
  sago,
  ctx,
) => {
  const cmd = new Command('sago').description(
    "SAGO: how much each model's behaviour (BLEU, BERTScore, log-prob, entropy, activation, mirroring) changes across meaning-preserving variations of a prompt",
  );
  SAGO_FLAGS.addTo(cmd);
  addExamples(cmd, [
    ['waver sago --models gguf:./m.gguf --limit 3 --families noise', 'the built-in questions, a quick run'],
    [
      'waver sago --dataset truthfulqa,nq-open --models openai:gpt-4o-mini',
      'named datasets, 16 prompts each',
    ],
    ['waver sago --dataset ./p.jsonl --fields prompt=instruction --models ...', 'your own prompts'],
  ]);
  cmd.action(async () => {
    const config = SAGO_FLAGS.config(cmd, ctx.config);
    process.exitCode = await executeProtocol(sago, config, {
      run: runView({ line: (stage, detail) => `sago ${stage}: ${detail}`, label: (stage) => stage }),
      dryRunNote: (plan) => {
        const p = promptSetsSize(plan);
        return `sago dry run: ${p.prompts} prompts x ${p.variations} variations -> ${p.tests} tests per model (before the generator and the meaning filter)`;
      },
    });
  });
  return cmd;
};
