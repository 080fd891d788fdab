import { Command, Option } from 'commander';
import {
  addCommonOptions,
  addExamples,
  commandConfig,
  fieldMap,
  splitList,
} from '../../command-kit/options.js';
import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import type { ProtocolCommand } from '../define.js';
import { executeProtocol, runView } from '../execute.js';
import type { CommandContext, RunOutcome } from '../types.js';
import { MIRRORING_RULES, SAGO_FAMILIES, SAGO_POSITIONS, type SagoConfigInput } from './config.js';
import { SAGO_AXES } from './metrics.js';
import { promptSetsSize, type SagoPromptSets } from './prompt-sets.js';
import type { SagoResults } from './results.js';
import { formatSagoResults } from './tables.js';

interface SagoFlags {
  datasets?: string;
  n?: string;
  families?: string;
  variations?: string;
  strengths?: string;
  structural?: 'auto' | 'generator' | 'rules';
  bleuMode?: 'sentence' | 'sago-reference';
  axes?: string;
  eps?: string;
  closedSubset?: boolean;
  confidence?: 'generation' | 'teacher-forced';
  activationInput?: 'prompt' | 'response';
  bertscore?: 'auto' | 'word-prefix' | 'off';
  dataDir?: string;
  fields?: string;
  promptField?: string;
  idField?: string;
  ablationDraws?: string;
  reference?: boolean;
  deltaBaseline?: 'self' | 'strength-zero';
  sentenceForm?: 'against-prompt' | 'imperative-vs-interrogative';
  zeroStrength?: 'in-set' | 'left-out';
  positions?: string;
  mirroringRules?: 'sago-reference' | 'density';
}

/**
 * `waver sago`: per-prompt instability of each model across meaning-preserving variations of
 * open-ended prompts, on every behavioural axis the model allows, with SGS and significance
 * (docs/sago.md). With no dataset it runs offline on waver's built-in questions.
 */
export const sagoCommand: ProtocolCommand<SagoPromptSets, SagoResults, RunOutcome<SagoResults>> = (
  sago,
  ctx,
) => {
  const cmd = new Command('sago')
    .description(
      "SAGO: how much each model's behaviour (BLEU, BERTScore, log-prob, entropy, activation, mirroring) changes across meaning-preserving variations of a prompt",
    )
    .option(
      '--datasets <names>',
      'comma-separated: truthfulqa, nq-open, triviaqa, hotpotqa, simpleqa, alpaca, builtin, or .jsonl/.json/.csv files (default: builtin)',
    )
    .option('--n <n>', 'prompts sampled per dataset (default 16)')
    .option('--families <list>', `variation families to use: ${SAGO_FAMILIES.join(', ')} (default all)`)
    .option(
      '--variations <n>',
      'use at most N variations per prompt (a seeded sample of the set, the same for every prompt)',
    )
    .option(
      '--strengths <spec>',
      "keep only these strengths, e.g. 'spacing=1,5;politeness=-10,10;length=0.5'",
    )
    .addOption(
      new Option('--structural <mode>', 'structural rewrites by the generator model or by rules').choices([
        'auto',
        'generator',
        'rules',
      ]),
    )
    .addOption(
      new Option(
        '--bleu-mode <mode>',
        'BLEU: sacrebleu sentence BLEU, or corpus_bleu per pair as the reference code',
      ).choices(['sentence', 'sago-reference']),
    )
    .option('--axes <list>', `axes that must be computed (error if a model cannot): ${SAGO_AXES.join(', ')}`)
    .option('--eps <list>', 'tolerances tested (default 0.01,0.05,0.10)')
    .option('--closed-subset', 'register strengths -10,-6,-2,0,2,6,10 only (the paper subset for paid APIs)')
    .addOption(
      new Option('--confidence <mode>', 'log-prob and entropy source').choices([
        'generation',
        'teacher-forced',
      ]),
    )
    .addOption(
      new Option('--activation-input <what>', 'what the activation axis embeds').choices([
        'prompt',
        'response',
      ]),
    )
    .addOption(
      new Option('--bertscore <mode>', 'token embeddings for BERTScore').choices([
        'auto',
        'word-prefix',
        'off',
      ]),
    )
    .option(
      '--data-dir <dir>',
      'directory of the named datasets (default: env WAVER_DATA_DIR, else none: named datasets come from the Hugging Face Hub)',
    )
    .option(
      '--fields <map>',
      'which record fields hold a prompt, e.g. prompt=instruction,id=uid (names: prompt, id, references)',
    )
    .option('--prompt-field <field>', 'prompt field of dataset files (dotted path)')
    .option('--id-field <field>', 'id field of dataset files')
    .option('--ablation-draws <n>', 'draws per N in the sample-size ablation (default 500)')
    .option(
      '--reference',
      "the SAGO reference code's behaviour for every switch not given (docs/fidelity.md#sago)",
    )
    .addOption(
      new Option(
        '--delta-baseline <what>',
        "Delta against the baseline's self-similarity, or a second baseline sample",
      ).choices(['self', 'strength-zero']),
    )
    .addOption(
      new Option(
        '--sentence-form <how>',
        'both forms against the prompt, or the imperative against the interrogative',
      ).choices(['against-prompt', 'imperative-vs-interrogative']),
    )
    .addOption(
      new Option('--zero-strength <where>', 'register strength 0 in the variation set or left out').choices([
        'in-set',
        'left-out',
      ]),
    )
    .option('--positions <list>', `positions of register and noise variants: ${SAGO_POSITIONS.join(', ')}`)
    .addOption(
      new Option(
        '--mirroring-rules <rules>',
        "noise mirroring: the SAGO authors' rules or waver's density rules",
      ).choices([...MIRRORING_RULES]),
    );
  addCommonOptions(cmd);
  addExamples(cmd, [
    ['waver sago --models gguf:./m.gguf --n 3 --families noise', 'the built-in questions, a quick run'],
    [
      'waver sago --datasets truthfulqa,nq-open --models openai:gpt-4o-mini',
      'named datasets, 16 prompts each',
    ],
    ['waver sago --datasets ./prompts.jsonl --fields prompt=instruction --models ...', 'your own prompts'],
  ]);
  cmd.action(async () => {
    const config = sagoConfig(cmd, ctx);
    process.exitCode = await executeProtocol(sago, config, {
      run: runView({ line: (stage, detail) => `sago ${stage}: ${detail}`, label: (stage) => stage }),
      dryRunNote: (plan) => {
        const p = promptSetsSize(plan);
        return `sago dry run: ${p.prompts} prompts x ${p.variations} variations -> ${p.tests} tests per model (before the generator and the meaning filter)`;
      },
      // Stopped, it has no results: the closing line says how to resume.
      print: ({ results }) => results && formatSagoResults(results, config.format),
    });
  });
  return cmd;
};

/** The typed config: waver.yaml, then the common flags, then the sago flags over its `sago:` section. */
function sagoConfig(cmd: Command, ctx: CommandContext): WaverConfig {
  const o = cmd.opts<SagoFlags>();
  const sago: SagoConfigInput = {};
  if (o.datasets !== undefined) sago.datasets = splitList(o.datasets);
  if (o.n !== undefined) sago.n = int(o.n, '--n');
  if (o.families !== undefined) sago.families = splitList(o.families) as SagoConfigInput['families'];
  if (o.variations !== undefined) sago.variations = int(o.variations, '--variations');
  if (o.strengths !== undefined) sago.strengths = parseStrengths(o.strengths);
  if (o.structural !== undefined) sago.structural = o.structural;
  if (o.bleuMode !== undefined) sago.bleuMode = o.bleuMode;
  if (o.axes !== undefined) sago.axes = splitList(o.axes) as SagoConfigInput['axes'];
  const eps = o.eps === undefined ? undefined : splitList(o.eps).map((x) => num(x, '--eps'));
  if (eps !== undefined) sago.eps = eps;
  if (o.closedSubset) sago.closedModelSubset = true;
  if (o.confidence !== undefined) sago.confidence = o.confidence;
  if (o.activationInput !== undefined) sago.activationInput = o.activationInput;
  if (o.bertscore !== undefined) sago.bertscore = o.bertscore;
  if (o.dataDir !== undefined) sago.dataDir = o.dataDir;
  if (o.fields !== undefined || o.promptField !== undefined || o.idField !== undefined)
    sago.fields = {
      ...(o.fields !== undefined ? fieldMap(o.fields, '--fields') : {}),
      ...(o.promptField ? { prompt: o.promptField } : {}),
      ...(o.idField ? { id: o.idField } : {}),
    };
  if (o.ablationDraws !== undefined) sago.ablation = { draws: int(o.ablationDraws, '--ablation-draws') };
  if (o.reference) sago.reference = true;
  if (o.deltaBaseline !== undefined) sago.deltaBaseline = o.deltaBaseline;
  if (o.sentenceForm !== undefined) sago.sentenceForm = o.sentenceForm;
  if (o.zeroStrength !== undefined) sago.zeroStrength = o.zeroStrength;
  if (o.positions !== undefined) sago.positions = splitList(o.positions) as SagoConfigInput['positions'];
  if (o.mirroringRules !== undefined) sago.mirroringRules = o.mirroringRules;
  const config = commandConfig(cmd, ctx.config, { sago });
  // `--eps` without the primary eps among them makes the first of them primary.
  const primary = config.sago?.primaryEps;
  if (eps?.[0] !== undefined && primary !== undefined && !eps.includes(primary))
    return { ...config, sago: { ...config.sago, primaryEps: eps[0] } };
  return config;
}

/** `spacing=1,5;politeness=-10,10` -> { spacing: [1, 5], politeness: [-10, 10] }. */
export function parseStrengths(spec: string): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const part of spec
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new InputError(`expected SUBTYPE=S1,S2 in '${part}'`, { field: '--strengths' });
    const subtype = part.slice(0, eq).trim();
    out[subtype] = splitList(part.slice(eq + 1)).map((x) => num(x, `--strengths ${subtype}`));
  }
  return out;
}

function int(value: string, flag: string): number {
  if (!/^-?\d+$/.test(value.trim()))
    throw new InputError(`expected an integer, got '${value}'`, { field: flag });
  return Number(value);
}

function num(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new InputError(`expected a number, got '${value}'`, { field: flag });
  return n;
}
