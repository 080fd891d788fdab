import { ProviderError } from '../models/errors.js';
import type {
  CallOptions,
  Capabilities,
  GenerateRequest,
  GenerateResult,
  ModelProvider,
} from '../models/types.js';

/** What one call does. */
export type Step =
  | { ok: string; delayMs?: number; usage?: { inputTokens: number; outputTokens: number } }
  | { fail: ProviderError; delayMs?: number }
  /** Throws something that is not a ProviderError (a provider bug). */
  | { throws: unknown }
  /** Never answers; rejects only when its signal aborts. */
  | { hang: true }
  /** Never answers and ignores its signal (a provider that does not honour aborts). */
  | { hangDeaf: true };

/** Decides a call's outcome from the prompt (last user message) and how many times it was asked (0-based). */
export type Script = (prompt: string, nth: number, request: GenerateRequest) => Step;

/** What a chat-only test provider can do: text, nothing else. */
export const CHAT_ONLY_CAPABILITIES: Capabilities = {
  chat: true,
  tokenLogprobs: false,
  topLogprobs: 0,
  fullDistribution: false,
  scoreContinuation: false,
  embeddings: false,
};

/**
 * An in-process ModelProvider whose calls follow a script, for unit tests of the scheduler. It
 * counts calls and the most calls it ever had in flight at once.
 */
export class ScriptedProvider implements ModelProvider {
  /** ProviderName has no test member; 'replay' is the nearest: answers that come from a script. */
  readonly provider = 'replay' as const;
  readonly modelId: string;
  readonly identity: string;
  readonly capabilities = CHAT_ONLY_CAPABILITIES;
  calls = 0;
  inFlight = 0;
  maxInFlight = 0;
  readonly callsByPrompt = new Map<string, number>();
  private readonly script: Script;

  constructor(script: Script, opts: { identity?: string; modelId?: string } = {}) {
    this.script = script;
    this.modelId = opts.modelId ?? 'scripted';
    this.identity = opts.identity ?? `scripted:${this.modelId}`;
  }

  async generate(request: GenerateRequest, options: CallOptions = {}): Promise<GenerateResult> {
    const prompt = lastUser(request);
    const nth = this.callsByPrompt.get(prompt) ?? 0;
    this.callsByPrompt.set(prompt, nth + 1);
    this.calls++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const step = this.script(prompt, nth, request);
      if ('throws' in step) throw step.throws;
      if ('hangDeaf' in step) return await new Promise<never>(() => {});
      if ('hang' in step) return await waitForAbort(options.signal);
      if (step.delayMs) await delay(step.delayMs, options.signal);
      if ('fail' in step) throw step.fail;
      return {
        text: step.ok,
        finishReason: 'stop',
        usage: step.usage ?? { inputTokens: Math.ceil(prompt.length / 4), outputTokens: 1 },
        responseModel: this.modelId,
      };
    } finally {
      this.inFlight--;
    }
  }
}

/** Shorthands for scripts. */
export const steps = {
  ok: (text: string, delayMs?: number): Step => ({ ok: text, ...(delayMs ? { delayMs } : {}) }),
  fail: (
    kind: ConstructorParameters<typeof ProviderError>[0],
    status?: number,
    retryAfterMs?: number,
  ): Step => ({
    fail: new ProviderError(kind, `${kind}${status ? ` ${status}` : ''} (scripted)`, {
      ...(status !== undefined ? { status } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    }),
  }),
};

function lastUser(request: GenerateRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i];
    if (m?.role === 'user') return m.content;
  }
  return '';
}

function waitForAbort(signal?: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal?.aborted) reject(new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), {
      once: true,
    });
  });
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}
