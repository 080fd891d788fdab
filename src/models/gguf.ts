import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type {
  LlamaContext,
  LlamaContextSequence,
  LlamaEmbeddingContext,
  LlamaGrammarEvaluationState,
  LlamaModel,
  LlamaText,
  Token,
} from 'node-llama-cpp';
import { ProviderError } from './errors.js';
import { EventQueue } from './event-queue.js';
import { IncrementalDecoder } from './gguf-decoder.js';
import { DeltaSender } from './gguf-deltas.js';
import { isWholeJson, jsonGrammar } from './gguf-grammar.js';
import {
  hasLayerStates,
  type LayerStatesReader,
  type LogitSummaryReader,
  layerStatesReader,
  logitSummaryReader,
} from './gguf-native.js';
import {
  beginningToken,
  type ChatTemplateSetting,
  createPromptFormat,
  errorText,
  type PromptFormat,
  tokenizeContinuation,
  tokenizePrompt,
} from './gguf-prompt.js';
import {
  DEFAULT_MAX_TOKENS,
  type GenerateParams,
  MAX_TOP_LOGPROBS,
  raiseContext,
  validateGenerate,
  validateMessages,
} from './gguf-request.js';
import {
  type DistributionRead,
  LOGPROB_FLOOR,
  logprobEntry,
  readDistribution,
  sampleToken,
  seededRandom,
} from './gguf-sampling.js';
import { SequencePool } from './gguf-sequences.js';
import { cutAtStop, StopFinder, type StopHit } from './gguf-stops.js';
import { acquireModel, type ModelLease, modelFingerprint } from './llama.js';
import { llamaCpp } from './llama-cpp.js';
import type {
  CallOptions,
  Capabilities,
  EmbedRequest,
  EmbedResult,
  FinishReason,
  GenerateEvent,
  GenerateRequest,
  GenerateResult,
  ModelProvider,
  ScoreRequest,
  ScoreResult,
  TokenizerInfo,
  TokenLogprob,
} from './types.js';

export interface GgufProviderSettings {
  /** Path of the .gguf file. */
  modelPath: string;
  /** Tokens per sequence; defaults to the model's training context, capped at 4096. */
  contextSize?: number;
  /** See PromptFormat: `auto` (default) uses the model's template when it has one, else `raw`. */
  chatTemplate?: ChatTemplateSetting;
  /**
   * CPU threads per evaluation (default 1). Speed only: the tiny model's log-probs are bit-identical
   * at 1 and 2 threads, so the count stays out of the identity.
   */
  threads?: number;
  /** Display name in reports; not part of the identity. */
  label?: string;
  /**
   * Requests evaluated side by side, each in its own sequence of one context (one batch per step).
   * Default 1, a queue. Measured on the 2-core machine with the tiny model (32 concurrent requests,
   * 128 tokens each): 4 or 8 sequences generate 1.2-1.3x faster with log-probs (2,600 vs 2,100
   * tokens/s), but batching changes the logits in the last bits and, at a near tie, the greedy
   * token: with 4 sequences a concurrent answer differed from the same request run alone. One
   * sequence keeps every answer identical whatever else is running.
   */
  sequences?: number;
  /**
   * Greedy log-probs and teacher-forced scores through the patched addon when it is built (`npm run
   * build:gguf-native`) and one sequence decodes: default true. false keeps node-llama-cpp's public
   * route, ~20x slower at a 32k vocabulary, to compare the two; they agree to ~1e-7
   * (docs/decisions.md E30), so the route is not part of the identity.
   */
  nativeLogits?: boolean;
}

const DEFAULT_CONTEXT_CAP = 4096;

export const GGUF_CAPABILITIES: Capabilities = {
  chat: true,
  tokenLogprobs: true,
  topLogprobs: MAX_TOP_LOGPROBS,
  fullDistribution: true,
  scoreContinuation: true,
  embeddings: true,
};

/** Loads a GGUF in process (one shared llama.cpp binding and model cache per process) and wraps it as a provider. */
export async function createGgufProvider(settings: GgufProviderSettings): Promise<GgufProvider> {
  const { modelPath } = settings;
  const { sequences, threads } = checkSettings(settings);
  const [fingerprint, lease] = await Promise.all([
    modelFingerprint(modelPath),
    acquireModel(modelPath).catch((error: unknown) => {
      throw new ProviderError('client', `cannot load GGUF model ${modelPath}: ${errorText(error)}`, {
        cause: error,
      });
    }),
  ]);
  try {
    const { model } = lease;
    const format = createPromptFormat(model, settings.chatTemplate ?? 'auto', basename(modelPath));
    const contextSize = settings.contextSize ?? Math.min(model.trainContextSize, DEFAULT_CONTEXT_CAP);
    const context = await openContext(model, modelPath, { contextSize, sequences, threads });
    const template = format.mode === 'model' ? `model:${format.templateHash}` : 'raw';
    const identity = `gguf:${basename(modelPath)}#${fingerprint}?template=${template}&ctx=${contextSize}`;
    return new GgufProvider({ settings, lease, context, contextSize, format, identity });
  } catch (error) {
    await lease.release();
    throw error;
  }
}

/** Refuses settings the provider cannot start with, before the model loads; the counts with their defaults. */
function checkSettings(settings: GgufProviderSettings): { sequences: number; threads: number } {
  const { modelPath } = settings;
  if (!existsSync(modelPath)) {
    throw new ProviderError('client', `GGUF model file not found: ${modelPath}`);
  }
  if (!statSync(modelPath).isFile())
    throw new ProviderError('client', `GGUF model path is not a file: ${modelPath}`);
  if (
    settings.contextSize !== undefined &&
    !(Number.isInteger(settings.contextSize) && settings.contextSize > 0)
  ) {
    throw new ProviderError('client', `contextSize must be a positive integer, got ${settings.contextSize}`);
  }
  const sequences = settings.sequences ?? 1;
  if (!(Number.isInteger(sequences) && sequences > 0)) {
    throw new ProviderError('client', `sequences must be a positive integer, got ${settings.sequences}`);
  }
  const threads = settings.threads ?? 1;
  if (!(Number.isInteger(threads) && threads > 0)) {
    throw new ProviderError('client', `threads must be a positive integer, got ${settings.threads}`);
  }
  return { sequences, threads };
}

/** The context every request runs in, one sequence per concurrent request. */
async function openContext(
  model: LlamaModel,
  modelPath: string,
  { contextSize, sequences, threads }: { contextSize: number; sequences: number; threads: number },
): Promise<LlamaContext> {
  try {
    // The binding's thread budget caps every context's threads; a context that asks for more raises it.
    if (threads > model.llama.maxThreads) model.llama.maxThreads = threads;
    return await model.createContext({
      contextSize,
      sequences,
      threads,
      // Numerics that do not depend on batch shape: with flash attention or an f16 KV cache, a
      // prompt evaluated in one batch and the same tokens evaluated one by one differ by up to
      // ~1e-3 nats per token on the tiny model; with neither they agree to ~1e-6. That keeps a
      // teacher-forced score equal to the generation's own log-probs. Costs 2x KV memory.
      flashAttention: false,
      experimentalKvCacheKeyType: 'F32',
      experimentalKvCacheValueType: 'F32',
    });
  } catch (error) {
    throw new ProviderError(
      'server',
      `cannot create a ${contextSize}-token context for ${modelPath}: ${errorText(error)}`,
      {
        cause: error,
      },
    );
  }
}

interface ProviderParts {
  settings: GgufProviderSettings;
  lease: ModelLease;
  context: LlamaContext;
  /** As asked: llama.cpp may pad the context it allocates (to 256 at least), but requests are held to this. */
  contextSize: number;
  format: PromptFormat;
  identity: string;
}

interface PreparedPrompt {
  text: LlamaText;
  tokens: Token[];
}

export class GgufProvider implements ModelProvider {
  readonly provider = 'gguf' as const;
  readonly modelId: string;
  readonly identity: string;
  readonly capabilities: Capabilities;
  readonly label?: string;
  /** Tokens each request may use (prompt + generated). */
  readonly contextSize: number;
  /** The chat template mode in use (`auto` resolved). */
  readonly chatTemplate: 'raw' | 'model';
  /** Whether greedy log-probs and scores are read through the patched addon (docs/decisions.md E30). */
  readonly nativeLogits: boolean;

  readonly #lease: ModelLease;
  readonly #model: LlamaModel;
  readonly #context: LlamaContext;
  readonly #format: PromptFormat;
  readonly #pool: SequencePool;
  readonly #readLogits?: LogitSummaryReader;
  #embedding?: Promise<{ context: LlamaEmbeddingContext; layers?: LayerStatesReader }>;
  /** Embedding evaluations one at a time, so a layer capture sees its own text only. */
  #embedQueue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(parts: ProviderParts) {
    this.modelId = parts.settings.modelPath;
    this.label = parts.settings.label;
    this.identity = parts.identity;
    this.#lease = parts.lease;
    this.#model = parts.lease.model;
    this.#context = parts.context;
    this.#format = parts.format;
    this.contextSize = parts.contextSize;
    this.chatTemplate = parts.format.mode;
    const sequences: LlamaContextSequence[] = [];
    for (let i = 0; i < parts.context.totalSequences; i++) sequences.push(parts.context.getSequence());
    this.#pool = new SequencePool(sequences);
    // The reader sees the context's last output: right only with one sequence.
    if (parts.settings.nativeLogits !== false && parts.context.totalSequences === 1)
      this.#readLogits = logitSummaryReader(parts.context);
    this.nativeLogits = this.#readLogits !== undefined;
    this.capabilities = { ...GGUF_CAPABILITIES, hiddenLayers: hasLayerStates(parts.context) };
  }

  /** The exact input the model sees for a request: its tokens, and their text with special tokens spelled out. */
  renderPrompt(request: Pick<GenerateRequest, 'messages' | 'rawPrompt'>): { text: string; tokens: Token[] } {
    const { tokens } = this.#promptOf(request);
    return { text: this.#model.detokenize(tokens, true), tokens };
  }

  async countTokens(text: string): Promise<number> {
    this.#ensureOpen();
    return this.#model.tokenize(text, false).length;
  }

  async tokenize(text: string): Promise<number[]> {
    this.#ensureOpen();
    return [...this.#model.tokenize(text, false)];
  }

  async detokenize(tokens: number[]): Promise<string> {
    this.#ensureOpen();
    return this.#model.detokenize(tokens as Token[]);
  }

  tokenizerInfo(): TokenizerInfo {
    const bos = beginningToken(this.#model);
    const { eos, bosString, eosString } = this.#model.tokens;
    return {
      ...(bos !== undefined && bosString !== null && { bos: { id: bos, text: bosString } }),
      ...(eos !== null && eosString !== null && { eos: { id: eos, text: eosString } }),
      contextSize: this.contextSize,
    };
  }

  async generate(request: GenerateRequest, options: CallOptions = {}): Promise<GenerateResult> {
    const { prompt, params } = this.#prepareGenerate(request);
    const grammar = await jsonGrammar(this.#model, request.json);
    return this.#run(options.signal, (sequence) =>
      this.#generate(sequence, prompt.tokens, { ...params, grammar }, options.signal),
    );
  }

  async *stream(request: GenerateRequest, options: CallOptions = {}): AsyncGenerator<GenerateEvent> {
    const { prompt, params } = this.#prepareGenerate(request);
    const grammar = await jsonGrammar(this.#model, request.json);
    // A reader that stops early (a client that hung up) aborts the generation through `stop`.
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const events = new EventQueue<GenerateEvent>();
    const onDelta = (text: string, tokens: TokenLogprob[]) => events.push({ type: 'delta', text, tokens });
    this.#run(signal, (sequence) =>
      this.#generate(sequence, prompt.tokens, { ...params, grammar }, signal, onDelta),
    ).then(
      (result) => {
        events.push({ type: 'done', result });
        events.end();
      },
      (error: unknown) => events.fail(error),
    );
    try {
      yield* events;
    } finally {
      stop.abort(new Error('stream closed by its reader'));
    }
  }

  async score(request: ScoreRequest, options: CallOptions = {}): Promise<ScoreResult> {
    this.#ensureOpen();
    if (typeof request.continuation !== 'string') {
      throw new ProviderError('client', 'score: continuation must be a string');
    }
    const topK = request.topLogprobs ?? 0;
    if (!Number.isInteger(topK) || topK < 0 || topK > MAX_TOP_LOGPROBS)
      throw new ProviderError('client', `topLogprobs must be an integer from 0 to ${MAX_TOP_LOGPROBS}`);
    const prompt = this.#promptOf(request);
    const continuation = tokenizeContinuation(this.#model, prompt.text, prompt.tokens, request.continuation);
    if (continuation.length === 0) return { logprob: 0, tokens: [] };
    this.#ensureFits(
      prompt.tokens.length + continuation.length,
      // A bare text scored after BOS (waver serve's echo) is counted as one prompt, BOS included.
      request.rawPrompt === ''
        ? `the text (${prompt.tokens.length + continuation.length} tokens with BOS)`
        : `the prompt (${prompt.tokens.length} tokens) plus the continuation (${continuation.length})`,
    );
    return this.#run(options.signal, (sequence) => this.#score(sequence, prompt.tokens, continuation, topK));
  }

  async embed(request: EmbedRequest, options: CallOptions = {}): Promise<EmbedResult> {
    this.#ensureOpen();
    if (!Array.isArray(request.input) || request.input.some((text) => typeof text !== 'string')) {
      throw new ProviderError('client', 'embed: input must be an array of strings');
    }
    if (request.layers !== undefined && request.layers !== 'all')
      throw new ProviderError('client', "embed: layers must be 'all' when given");
    const { context, layers } = await this.#embeddingContext();
    if (request.layers === 'all' && !layers)
      throw new ProviderError(
        'client',
        'embed: layers: all needs the patched addon (npm run build:gguf-native); node-llama-cpp alone gives the final layer only',
      );
    const embeddings: number[][] = [];
    const layerStates: number[][][] = [];
    let inputTokens = 0;
    for (const [i, text] of request.input.entries()) {
      options.signal?.throwIfAborted();
      if (text === '') throw new ProviderError('client', `embed: input[${i}] is an empty string`);
      const length = context.calculateInputLength(text);
      if (length >= this.contextSize) {
        throw new ProviderError(
          'client',
          `embed: input[${i}] is ${length} tokens but the context holds ${this.contextSize}; ${raiseContext(length + 1)}`,
          { reason: 'context_length_exceeded' },
        );
      }
      inputTokens += length;
      const one = this.#embedQueue.then(async () => {
        let vector: number[] = [];
        const evaluate = async () => {
          vector = (await context.getEmbeddingFor(text)).vector.slice();
        };
        if (request.layers !== 'all' || !layers) {
          await evaluate();
          return { vector };
        }
        const states = await layers(evaluate);
        if (!states)
          throw new ProviderError(
            'client',
            `embed: no hidden state for every layer of input[${i}] (this model's architecture names its layers otherwise)`,
          );
        return { vector, states };
      });
      this.#embedQueue = one.catch(() => undefined);
      try {
        const { vector, states } = await one;
        embeddings.push(vector);
        if (states) layerStates.push(states);
      } catch (error) {
        throw toProviderError(error, 'embedding');
      }
    }
    return { embeddings, ...(request.layers === 'all' && { layerStates }), usage: { inputTokens } };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const embedding = this.#embedding;
    this.#embedding = undefined;
    await Promise.allSettled([this.#context.dispose(), embedding?.then(({ context }) => context.dispose())]);
    await this.#lease.release();
  }

  #prepareGenerate(request: GenerateRequest): { prompt: PreparedPrompt; params: GenerateParams } {
    this.#ensureOpen();
    const params = validateGenerate(request);
    const prompt = this.#promptOf(request);
    this.#ensureFits(
      prompt.tokens.length + 1,
      `the prompt (${prompt.tokens.length} tokens) plus one generated token`,
      prompt.tokens.length + params.maxTokens,
    );
    return { prompt, params };
  }

  #ensureOpen(): void {
    if (this.#closed) throw new ProviderError('client', `gguf provider for ${this.modelId} is closed`);
  }

  #promptOf(request: Pick<GenerateRequest, 'messages' | 'rawPrompt'>): PreparedPrompt {
    let text: LlamaText;
    if (request.rawPrompt !== undefined) {
      if (typeof request.rawPrompt !== 'string')
        throw new ProviderError('client', 'rawPrompt must be a string');
      text = llamaCpp().LlamaText(request.rawPrompt);
    } else {
      validateMessages(request.messages);
      text = this.#format.render(request.messages);
    }
    const tokens = tokenizePrompt(this.#model, text);
    if (tokens.length === 0) throw new ProviderError('client', 'the prompt is empty (no tokens)');
    return { text, tokens };
  }

  /**
   * `needed` = prompt tokens plus at least one generated token (generate) or the continuation
   * (score); `wanted` = all the call would use (the whole answer), which sizes the suggested context.
   */
  #ensureFits(needed: number, what: string, wanted = needed): void {
    if (needed > this.contextSize) {
      throw new ProviderError(
        'client',
        `${what} needs ${needed} tokens but the context holds ${this.contextSize}; ${raiseContext(wanted)}`,
        { reason: 'context_length_exceeded' },
      );
    }
  }

  async #run<T>(
    signal: AbortSignal | undefined,
    work: (sequence: LlamaContextSequence) => Promise<T>,
  ): Promise<T> {
    signal?.throwIfAborted();
    return this.#pool.use(async (sequence) => {
      signal?.throwIfAborted();
      this.#ensureOpen();
      try {
        // Every request starts from an empty sequence: reusing a cached prefix would evaluate the
        // prompt in different batch shapes and could change the logits in the last bits.
        await sequence.clearHistory();
        return await work(sequence);
      } catch (error) {
        if (signal?.aborted && error === signal.reason) throw error;
        throw toProviderError(error, 'evaluation');
      }
    });
  }

  async #generate(
    sequence: LlamaContextSequence,
    prompt: Token[],
    params: GenerateParams & { grammar?: LlamaGrammarEvaluationState },
    signal: AbortSignal | undefined,
    onDelta?: (text: string, tokens: TokenLogprob[]) => void,
  ): Promise<GenerateResult> {
    const model = this.#model;
    const { temperature, topP, wantTokens, topK, grammar } = params;
    // Room left in the context caps the answer; the sequence never shifts (that would change the prompt).
    const limit = Math.min(params.maxTokens, this.contextSize - prompt.length);
    const { random, readLogits, iterator } = this.#decoding(sequence, prompt, params);
    const decoder = new IncrementalDecoder(model, prompt.slice(-8));
    const stops = new StopFinder(model, params.stop, this.#format.stopTriggers);

    const generated: Token[] = [];
    // offsets[i]: where the text of generated token i begins.
    const offsets: number[] = [];
    const entries: TokenLogprob[] = [];
    const deltas = onDelta ? new DeltaSender(onDelta, entries) : undefined;
    let finishReason: FinishReason = 'length';
    let hit: StopHit | undefined;
    try {
      let step = await iterator.next();
      while (!step.done) {
        signal?.throwIfAborted();
        const probabilities = (step.value as { probabilities?: Map<Token, number> }).probabilities;
        let token = step.value.token;
        if (random !== undefined && probabilities)
          token = sampleToken(probabilities, temperature, topP, random) as Token;
        if (model.isEogToken(token)) {
          finishReason = 'stop';
          break;
        }
        // Before the next decode, which overwrites the logits it reads.
        const read = readLogits?.(token, topK);
        const previous = wantTokens ? (generated.length > 0 ? generated : prompt).slice(-4) : [];
        offsets.push(decoder.text.length);
        generated.push(token);
        decoder.push(token);

        // What decides the next step comes first: stops and the limit need only the token.
        hit = stops.find(generated, decoder.text);
        if (hit) finishReason = 'stop';
        // A grammar lets whitespace follow the closed value for ever: the value closed is the end.
        const closed = grammar !== undefined && isWholeJson(decoder.text);
        if (closed) finishReason = 'stop';
        const last = hit !== undefined || closed || generated.length >= limit;
        const next = last ? undefined : iterator.next(token);
        // Awaited below; until then a failure of the next step must not count as unhandled.
        next?.catch(() => {});
        if (wantTokens && (read || probabilities)) {
          // The log-prob entry waits until llama.cpp is decoding the next token, so that reading
          // the distribution overlaps the decode instead of adding to it (docs/decisions.md E23).
          if (next) await whileDecoding();
          const distribution = read ?? readDistribution(probabilities as Map<Token, number>, token, topK);
          entries.push(logprobEntry(model, distribution, token, previous));
        }
        if (deltas && !hit)
          deltas.sendBefore(decoder.text, stops.safeEnd(generated, decoder.text, offsets), offsets);
        if (!next) break;
        step = await next;
      }
      if (step.done) finishReason = 'stop';
    } finally {
      await iterator.return();
    }

    const { text, kept } = cutAtStop(hit, decoder, offsets, generated.length);
    const result: GenerateResult = {
      text,
      finishReason,
      usage: { inputTokens: prompt.length, outputTokens: generated.length },
      responseModel: basename(this.modelId),
    };
    if (wantTokens) result.tokens = entries.slice(0, kept);
    deltas?.send(text, text.length, wantTokens ? kept : 0);
    return result;
  }

  /**
   * How the answer's tokens are picked and read, and the evaluation that yields them. Under a
   * grammar llama.cpp's sampler picks the token (the grammar's state follows its pick). Sampled
   * tokens are drawn from the public route's sorted distribution; greedy log-probs are read
   * through the patched addon where it is built (not under a grammar, which the public route's
   * distribution already reflects).
   */
  #decoding(
    sequence: LlamaContextSequence,
    prompt: Token[],
    params: GenerateParams & { grammar?: LlamaGrammarEvaluationState },
  ) {
    const { temperature, topP, wantTokens, grammar } = params;
    const random = temperature > 0 && !grammar ? seededRandom(params.seed) : undefined;
    const readLogits = wantTokens && random === undefined && !grammar ? this.#readLogits : undefined;
    const needDistribution = (wantTokens && !readLogits) || random !== undefined;
    const iterator = sequence.evaluateWithMetadata(
      prompt,
      { probabilities: needDistribution },
      grammar
        ? {
            temperature,
            topP,
            topK: 0,
            seed: params.seed,
            grammarEvaluationState: grammar,
            yieldEogToken: true,
          }
        : { temperature: 0, yieldEogToken: true },
    );
    return { random, readLogits, iterator };
  }

  async #score(
    sequence: LlamaContextSequence,
    prompt: Token[],
    continuation: Token[],
    topK: number,
  ): Promise<ScoreResult> {
    const model = this.#model;
    const all = [...prompt, ...continuation];
    // The patched addon reads each position's logits after the evaluation: there are all of them
    // only when the whole input went in one batch (the sequence is empty, so position = index).
    const readLogits = all.length <= this.#context.batchSize ? this.#readLogits : undefined;
    // Logits are needed from the last prompt token on: position i predicts token i + 1. Asking for
    // the greedy token alone keeps them, without the public route's copy of the distribution.
    const generateNext = readLogits ? { token: true } : { probabilities: true };
    const input = all.map((token, i) =>
      i >= prompt.length - 1 && i < all.length - 1 ? ([token, { generateNext }] as const) : token,
    );
    const outputs = await sequence.controlledEvaluate(
      input as Parameters<typeof sequence.controlledEvaluate>[0],
    );
    const tokens: TokenLogprob[] = [];
    let logprob = 0;
    for (let j = 0; j < continuation.length; j++) {
      const token = continuation[j] as Token;
      const position = prompt.length - 1 + j;
      const previous = j > 0 ? continuation.slice(Math.max(0, j - 4), j) : prompt.slice(-4);
      const entry = logprobEntry(
        model,
        this.#scoredDistribution(outputs, position, token, j, topK, readLogits),
        token,
        previous,
      );
      logprob += entry.logprob;
      tokens.push(entry);
    }
    return { logprob, tokens };
  }

  #scoredDistribution(
    outputs: Awaited<ReturnType<LlamaContextSequence['controlledEvaluate']>>,
    position: number,
    token: Token,
    j: number,
    topK: number,
    readLogits: LogitSummaryReader | undefined,
  ): DistributionRead {
    if (readLogits) return readLogits(token, topK, position);
    const probabilities = outputs[position]?.next.probabilities;
    if (!probabilities)
      throw new ProviderError('server', `llama.cpp returned no distribution at continuation token ${j}`);
    return readDistribution(probabilities, token, topK);
  }

  #embeddingContext(): Promise<{ context: LlamaEmbeddingContext; layers?: LayerStatesReader }> {
    this.#embedding ??= this.#model
      .createEmbeddingContext({ contextSize: this.contextSize })
      .then((context) => ({ context, layers: layerStatesReader(context) }))
      .catch((error: unknown) => {
        this.#embedding = undefined;
        throw toProviderError(error, 'embedding context creation');
      });
    return this.#embedding;
  }
}

/**
 * Resolves once node-llama-cpp has handed the next decode to its worker thread: with one sequence
 * its dispatch runs in microtasks, and an immediate runs only after them. (With several sequences
 * it may wait for an immediate of its own, queued after this one; the entry is then read before
 * the decode starts, as it would be without this wait.)
 */
function whileDecoding(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Maps llama.cpp/node-llama-cpp failures onto ProviderError, keeping ProviderErrors as they are. */
function toProviderError(error: unknown, during: string): ProviderError {
  if (error instanceof ProviderError) return error;
  return new ProviderError('server', `llama.cpp failed during ${during}: ${errorText(error)}`, {
    cause: error,
  });
}

export { DEFAULT_MAX_TOKENS, LOGPROB_FLOOR, MAX_TOP_LOGPROBS };
