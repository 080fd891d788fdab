import { Command } from 'commander';
import { addExamples, commandFlags } from '../../command-kit/options.js';
import type { ProtocolCommand } from '../adapters.js';
import { executeProtocol, runView } from '../execute.js';
import { SpreadConfig } from './config.js';
import type { SpreadPlan } from './plan-grid.js';
import type { SpreadOutcome } from './protocol.js';
import type { SpreadResults } from './results.js';

const SPREAD_FLAGS = commandFlags({ section: { key: 'spread', schema: SpreadConfig } });

/**
 * `waver spread`: a model's accuracy across prompt templates, from a budgeted share of the
 * template x item grid; prints per model the quantiles, best and worst template and the spread,
 * with intervals (docs/spread.md).
 */
export const spreadCommand: ProtocolCommand<SpreadPlan, SpreadResults, SpreadOutcome> = (spread, ctx) => {
  const cmd = new Command('spread').description(
    'accuracy across prompt templates (FormatSpread formats or yours) from a budget of the template x item grid: quantiles, best and worst template, spread, with intervals',
  );
  SPREAD_FLAGS.addTo(cmd);
  addExamples(cmd, [
    [
      'waver spread --models M --dataset arc-challenge --templates 40 --budget 0.25',
      'a quarter of 40 formats x every item',
    ],
    [
      'waver spread --models M --dataset arc-challenge --budget 600 --search worst',
      'Thompson search for the worst format in 600 calls',
    ],
    [
      'waver spread --models M --dataset mmlu.csv --templates-file college_chemistry.csv',
      "Mizrahi et al.'s templates, from your checkout of prompteval",
    ],
  ]);
  cmd.action(async () => {
    const config = SPREAD_FLAGS.config(cmd, ctx.config);
    process.exitCode = await executeProtocol(spread, config, {
      build: { onStage: (stage, detail) => process.stderr.write(`spread ${stage}: ${detail}\n`) },
      run: runView({ line: (_stage, detail) => detail }),
    });
  });
  return cmd;
};
