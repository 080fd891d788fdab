import { InputError } from '../../errors.js';
import { describeProvider } from '../../models/registry.js';
import type { Capabilities, ProviderName, TokenLogprob } from '../../models/types.js';
import type { SagoConfig } from './config.js';
import { AXIS_HEADING, SAGO_AXES, type SagoAxis } from './constants.js';

/**
 * Which behavioural axes a model can give, and why not when it cannot (docs/sago.md#axes). An
 * axis a model cannot give is shown as unavailable with its reason, never as 0.
 */

/** A system under test as the manifest records it. */
export interface SagoModelRecord {
  label: string;
  identity: string;
  provider: ProviderName;
  capabilities: Capabilities;
}

/** The embedder role as the manifest records it. */
export interface SagoEmbedderRecord {
  label: string;
  identity: string;
  provider: ProviderName;
  /** Contextual token embeddings available (BERTScore); else pooled only (embedding cosine). */
  tokenLevel: boolean;
}

export interface AxisStatus {
  axis: SagoAxis;
  heading: string;
  available: boolean;
  /** What was measured and how (shown beside the table). */
  method?: string;
  /** The value is an approximation (API entropy from the top-k alternatives). */
  approximate?: boolean;
  /** Why the axis is unavailable. */
  reason?: string;
}

export interface AxisContext {
  embedder?: SagoEmbedderRecord;
  /** The judge's label, when politeness mirroring has a judge. */
  judge?: string;
  settings: Pick<SagoConfig, 'bleuMode' | 'confidence' | 'activationInput' | 'axes'> &
    Partial<Pick<SagoConfig, 'activationLayers'>>;
}

/** An axis' status without its name. */
type Status = Omit<AxisStatus, 'axis' | 'heading'>;

/** Every axis' status for one model. */
export function axisStatuses(model: SagoModelRecord, ctx: AxisContext): Record<SagoAxis, AxisStatus> {
  const statuses: [SagoAxis, Status][] = [
    ['activation', activationStatus(model, ctx.settings)],
    ['bleu', bleuStatus(ctx.settings)],
    ...embedderStatuses(ctx.embedder),
    ...confidenceStatuses(model, ctx.settings),
    ['mirroring', mirroringStatus(ctx.judge)],
  ];
  return Object.fromEntries(
    statuses.map(([axis, s]) => [axis, { axis, heading: AXIS_HEADING[axis], ...s }]),
  ) as Record<SagoAxis, AxisStatus>;
}

/**
 * Activation: the model's own hidden states. Only an in-process model exposes them; an API's
 * embeddings endpoint is another model (or none), so it is not this model's activation.
 */
function activationStatus(model: SagoModelRecord, s: AxisContext['settings']): Status {
  const layers = s.activationLayers ?? 'final';
  if (!describeProvider(model.provider)?.inProcess || !model.capabilities.embeddings)
    return {
      available: false,
      reason: `${model.provider}: the model's hidden states are not exposed (only an in-process gguf model gives them)`,
    };
  if (layers === 'mean' && !model.capabilities.hiddenLayers)
    return {
      available: false,
      reason:
        "activationLayers: mean needs every layer's hidden state, which only the patched gguf addon gives (npm run build:gguf-native); node-llama-cpp alone gives the final layer's (activationLayers: final)",
    };
  return {
    available: true,
    method:
      layers === 'mean'
        ? `mean over the L + 1 hidden states (token embedding, each layer, the last after the final norm) of their cosine at the last token of the ${s.activationInput} (the paper's; llama.cpp embedding context, patched addon)`
        : `cosine of the final-layer hidden state at the last token of the ${s.activationInput} (llama.cpp embedding context; final layer only, as the reference code)`,
  };
}

function bleuStatus(s: AxisContext['settings']): Status {
  return {
    available: true,
    method:
      s.bleuMode === 'sentence'
        ? 'sacrebleu sentence BLEU (13a, exp smoothing, effective order), variant vs baseline response'
        : "sacrebleu corpus_bleu per pair, no effective order (the SAGO reference code's mode)",
  };
}

/** BERTScore (token embeddings) and embedding cosine (pooled ones), both the embedder's. */
function embedderStatuses(e: SagoEmbedderRecord | undefined): [SagoAxis, Status][] {
  if (!e)
    return [
      ['bertscore', { available: false, reason: 'no embedder configured (--embedder)' }],
      ['cosine', { available: false, reason: 'no embedder configured (--embedder)' }],
    ];
  return [
    [
      'bertscore',
      e.tokenLevel
        ? {
            available: true,
            method: `BERTScore-F1 (greedy matching, no idf, no rescaling) of word-prefix hidden states from ${e.label}`,
          }
        : {
            available: false,
            reason: `embedder ${e.label} gives pooled embeddings only (no token embeddings); see Δ-EmbCos`,
          },
    ],
    [
      'cosine',
      { available: true, method: `cosine of pooled response embeddings from ${e.label} (not BERTScore)` },
    ],
  ];
}

/** Log-prob and entropy: from the generation's own token log-probs, or a teacher-forced re-score. */
function confidenceStatuses(model: SagoModelRecord, s: AxisContext['settings']): [SagoAxis, Status][] {
  const caps = model.capabilities;
  const teacherForced = s.confidence === 'teacher-forced';
  const canScore = teacherForced ? caps.scoreContinuation : caps.tokenLogprobs;
  const how = teacherForced
    ? 'teacher-forced re-score of the response'
    : "the generation's own token log-probs";
  const logprob: Status = canScore
    ? { available: true, method: `sequence log-prob (nats) from ${how}` }
    : {
        available: false,
        reason: teacherForced
          ? `${model.provider}: no teacher-forced scoring`
          : `${model.provider}: no token log-probs`,
      };
  let entropy: Status;
  if (canScore && (caps.fullDistribution || teacherForced))
    entropy = {
      available: true,
      method: `mean token entropy (nats), exact from the full distribution, ${how}`,
    };
  else if (canScore && caps.topLogprobs > 0)
    entropy = {
      available: true,
      approximate: true,
      method: `mean token entropy from the top-${caps.topLogprobs} alternatives (approximation: a lower bound, the tail counted as one outcome)`,
    };
  else
    entropy = {
      available: false,
      reason: `${model.provider}: no next-token distribution (neither full nor top-k)`,
    };
  return [
    ['logprob', logprob],
    ['entropy', entropy],
  ];
}

function mirroringStatus(judge: string | undefined): Status {
  return {
    available: true,
    method: judge
      ? `rule detectors (spacing, punctuation, case, length) and a politeness judge (${judge})`
      : 'rule detectors (spacing, punctuation, case, length); no judge, so register variants have no mirroring value',
  };
}

/** Throws an InputError naming the model and axis when a requested axis cannot be given. */
export function checkRequestedAxes(models: readonly SagoModelRecord[], ctx: AxisContext): void {
  const wanted = ctx.settings.axes;
  if (!wanted) return;
  for (const m of models) {
    const statuses = axisStatuses(m, ctx);
    for (const axis of wanted) {
      const st = statuses[axis];
      if (!st.available)
        throw new InputError(`axis '${axis}' cannot be computed for ${m.label}: ${st.reason}`, {
          field: 'sago.axes',
        });
    }
  }
}

/** The axes to compute for a model: available ones, restricted to the requested ones when given. */
export function computedAxes(model: SagoModelRecord, ctx: AxisContext): SagoAxis[] {
  const statuses = axisStatuses(model, ctx);
  return SAGO_AXES.filter(
    (a) => statuses[a].available && (!ctx.settings.axes || ctx.settings.axes.includes(a)),
  );
}

/** Sequence log-prob of a response from its tokens; 0 for an empty response; undefined without tokens. */
export function sequenceLogprob(
  text: string,
  tokens: readonly TokenLogprob[] | undefined,
): number | undefined {
  if (tokens && tokens.length > 0) {
    let sum = 0;
    for (const t of tokens) sum += t.logprob;
    return sum;
  }
  return text === '' ? 0 : undefined;
}

/**
 * Mean token entropy: exact where each token carries `entropy` (full distribution), else from the
 * top-k alternatives (-sum p log p over them, the remaining mass r adding -r log r: a lower
 * bound); undefined with no tokens or neither.
 */
export function meanTokenEntropy(tokens: readonly TokenLogprob[] | undefined): number | undefined {
  if (!tokens || tokens.length === 0) return undefined;
  let sum = 0;
  for (const t of tokens) {
    if (t.entropy !== undefined) sum += t.entropy;
    else if (t.top && t.top.length > 0) sum += topKEntropy(t.top);
    else return undefined;
  }
  return sum / tokens.length;
}

export function topKEntropy(top: readonly { logprob: number }[]): number {
  let h = 0;
  let mass = 0;
  for (const a of top) {
    const p = Math.exp(a.logprob);
    mass += p;
    if (p > 0) h -= p * a.logprob;
  }
  const rest = 1 - mass;
  if (rest > 1e-12) h -= rest * Math.log(rest);
  return h;
}
