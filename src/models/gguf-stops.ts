/**
 * Where a gguf generation stops: at a caller's stop string or at one of the chat template's stop
 * triggers (text, or special tokens matched as tokens), and how much of the answer so far could
 * still turn out to be the start of one.
 */
import type { LlamaModel, LlamaText, Token } from 'node-llama-cpp';
import type { IncrementalDecoder } from './gguf-decoder.js';

/** A stop string that begins at character `at` of the text, or a stop-token sequence that ends the last `count` tokens. */
export type StopHit = { kind: 'text'; at: number } | { kind: 'tokens'; count: number };

export class StopFinder {
  readonly #texts: string[];
  readonly #tokens: Token[][];
  readonly #longest: number;
  /** Text before this was searched already; only a stop string that reaches past it can be new. */
  #searchFrom = 0;

  constructor(model: LlamaModel, stop: readonly string[], triggers: readonly LlamaText[]) {
    const matchers = triggers.map((trigger) => triggerMatcher(model, trigger));
    this.#texts = [...stop, ...matchers.flatMap((t) => (t.text === undefined ? [] : [t.text]))];
    this.#tokens = matchers.flatMap((t) => (t.tokens === undefined ? [] : [t.tokens]));
    this.#longest = Math.max(0, ...this.#texts.map((s) => s.length));
  }

  /** Called after each token: a stop-token sequence the tokens end with, else the first stop string in the text. */
  find(tokens: readonly Token[], text: string): StopHit | undefined {
    const tokenStop = this.#tokens.find((stop) => endsWith(tokens, stop));
    if (tokenStop) return { kind: 'tokens', count: tokenStop.length };
    if (this.#texts.length > 0 && text.length > this.#searchFrom) {
      const at = findStop(text, this.#texts, Math.max(0, this.#searchFrom - this.#longest + 1));
      this.#searchFrom = text.length;
      if (at !== undefined) return { kind: 'text', at };
    }
    return undefined;
  }

  /**
   * How much of the text can no longer become part of a stop: it ends before a tail that could
   * start a stop string, and before the first token of a tail that could start a stop-token
   * sequence (`offsets[i]` is where token i's text begins).
   */
  safeEnd(tokens: readonly Token[], text: string, offsets: readonly number[]): number {
    const held = heldForTokenStop(tokens, this.#tokens);
    return Math.min(
      text.length - heldForTextStop(text, this.#texts),
      offsets[tokens.length - held] ?? text.length,
    );
  }
}

/** The answer without its stop: its text, and how many of the generated tokens it keeps. */
export function cutAtStop(
  hit: StopHit | undefined,
  decoder: IncrementalDecoder,
  offsets: readonly number[],
  generated: number,
): { text: string; kept: number } {
  if (hit?.kind === 'text') {
    return { text: decoder.text.slice(0, hit.at), kept: offsets.filter((offset) => offset < hit.at).length };
  }
  if (hit?.kind === 'tokens') {
    const kept = generated - hit.count;
    return { text: decoder.text.slice(0, offsets[kept] ?? decoder.text.length), kept };
  }
  return { text: decoder.finish(), kept: generated };
}

function triggerMatcher(model: LlamaModel, trigger: LlamaText): { text?: string; tokens?: Token[] } {
  const plain = trigger.values.every((value) => typeof value === 'string');
  if (plain) return { text: trigger.toString() };
  return { tokens: trigger.tokenize(model.tokenizer, 'trimLeadingSpace') };
}

function endsWith(tokens: readonly Token[], tail: readonly Token[]): boolean {
  if (tail.length === 0 || tail.length > tokens.length) return false;
  for (let i = 1; i <= tail.length; i++)
    if (tokens[tokens.length - i] !== tail[tail.length - i]) return false;
  return true;
}

/** How many characters at the end of `text` could be the start of a stop string. */
function heldForTextStop(text: string, stops: readonly string[]): number {
  let held = 0;
  for (const stop of stops) {
    for (let k = Math.min(stop.length - 1, text.length); k > held; k--) {
      if (text.endsWith(stop.slice(0, k))) {
        held = k;
        break;
      }
    }
  }
  return held;
}

/** How many tokens at the end of `tokens` could be the start of a stop-token sequence. */
function heldForTokenStop(tokens: readonly Token[], stops: readonly Token[][]): number {
  let held = 0;
  for (const stop of stops) {
    for (let k = Math.min(stop.length - 1, tokens.length); k > held; k--) {
      if (endsWith(tokens, stop.slice(0, k))) {
        held = k;
        break;
      }
    }
  }
  return held;
}

function findStop(text: string, stops: readonly string[], from: number): number | undefined {
  let best: number | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop, from);
    if (at >= 0 && (best === undefined || at < best)) best = at;
  }
  return best;
}
