import type { WaverConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { type ModelSpec, specLabel, toModelSpec } from '../models/spec.js';
import type { EmbedResult, GenerateResult } from '../models/types.js';
import { CallsHalted, type ProviderCall, type ProviderMiddleware } from './call-path/middleware.js';
import { tokenEstimate } from './call-path/rate-limit.js';
import { modelPrice, type Price } from './prices.js';

/**
 * A command's budget (docs/decisions.md#e37-a-budget-stops-a-command-its-cells-left-pending):
 * `--max-calls` counts the tries that go on the wire, retries included, of every model and role;
 * `--max-cost` the USD they cost at known prices. One per provider pool, so one per command.
 */
export interface BudgetLimits {
  maxCalls?: number;
  maxCost?: number;
}

/** Sums of USD are compared with this slack, so $0.002 x 5 fits $0.01. */
const USD_SLACK = 1e-12;

/** Thrown instead of a try once the budget is reached; its message names the limit. */
export class BudgetReached extends CallsHalted {
  override readonly name = 'BudgetReached';
}

/**
 * The budget's state, shared by the meters of every model of a pool. A try is let through while
 * the calls made stay under `maxCalls` and its worst case (prompt estimated, output at its cap) fits
 * under `maxCost` beside what was spent and the worst cases of the tries in flight; the first one
 * refused reaches the budget: it and every later try are refused (BudgetReached), and once the tries
 * in flight have ended `signal` aborts, so the stages of a protocol stop where they look.
 */
export class CallBudget {
  /** Tries let through. */
  calls = 0;
  /** USD of the tries that ended, at their models' prices. */
  spentUsd = 0;
  reached: BudgetReached | undefined;
  private reservedUsd = 0;
  private inFlight = 0;
  /** Models called with no known price (their calls cost an unknown amount). */
  private readonly unpriced = new Set<string>();
  private readonly controller = new AbortController();
  /** Aborts with the BudgetReached once the budget is reached and no try of it is in flight. */
  readonly signal: AbortSignal = this.controller.signal;

  constructor(readonly limits: BudgetLimits) {}

  /** The price `spec`'s tries are metered at (an InputError when it has none and `maxCost` is set). */
  priceOf(spec: ModelSpec): Price | undefined {
    return meteredPrice(spec, this.limits);
  }

  /** The middleware that meters one model's tries (call-path.ts places it where a try goes on the wire). */
  meter(label: string, price: Price | undefined): ProviderMiddleware {
    return async (call, options, next) => {
      const worst = price ? costUsd(price, tokenEstimate(call)) : 0;
      this.admit(worst);
      this.calls++;
      this.inFlight++;
      this.reservedUsd += worst;
      if (!price) this.unpriced.add(label);
      let spent = 0;
      try {
        const result = await next(options);
        // An answer that reports no usage is charged its worst case.
        spent = price ? costUsd(price, reportedTokens(call, result) ?? tokenEstimate(call)) : 0;
        return result;
      } finally {
        this.reservedUsd -= worst;
        this.spentUsd += spent;
        this.inFlight--;
        this.stopWhenIdle();
      }
    };
  }

  /** `the budget (--max-calls 10): 10 calls made, $0.0080 spent`: what stopped the command, and what it spent. */
  describe(): string {
    const calls = `${this.calls} call${this.calls === 1 ? '' : 's'} made`;
    const cost =
      this.unpriced.size > 0
        ? `cost unknown (no price for ${[...this.unpriced].join(', ')})`
        : `$${this.spentUsd.toFixed(4)} spent`;
    return `${this.reached?.message ?? 'the budget'}: ${calls}, ${cost}`;
  }

  private admit(worstUsd: number): void {
    if (this.reached) throw this.reached;
    const { maxCalls, maxCost } = this.limits;
    let limit: string | undefined;
    if (maxCalls !== undefined && this.calls >= maxCalls) limit = `--max-calls ${maxCalls}`;
    else if (maxCost !== undefined && this.spentUsd + this.reservedUsd + worstUsd > maxCost + USD_SLACK)
      limit = `--max-cost $${maxCost}`;
    if (limit === undefined) return;
    this.reached = new BudgetReached(`the budget (${limit})`);
    this.stopWhenIdle();
    throw this.reached;
  }

  private stopWhenIdle(): void {
    if (this.reached && this.inFlight === 0 && !this.signal.aborted) this.controller.abort(this.reached);
  }
}

/** The budget of a command whose config sets one, else undefined. */
export function budgetOf(limits: BudgetLimits): CallBudget | undefined {
  return limits.maxCalls === undefined && limits.maxCost === undefined ? undefined : new CallBudget(limits);
}

/**
 * With `--max-cost`, every model the config names (systems under test, judge, generator,
 * embedder) needs a known price, checked before anything is called or written (E37).
 */
export function requirePrices(config: WaverConfig): void {
  if (config.maxCost === undefined) return;
  config.models.forEach((raw, i) => {
    const field = `models.${i}`;
    meteredPrice(toModelSpec(raw, { field }), config, field);
  });
  for (const role of ['judge', 'generator', 'embedder'] as const) {
    const raw = config[role];
    if (raw !== undefined) meteredPrice(toModelSpec(raw, { field: role }), config, role);
  }
}

/**
 * The price a model's tries are metered at. With `maxCost` set, a model whose price is unknown is
 * bad input: its calls could not be counted (`field` names where the config holds it).
 */
function meteredPrice(spec: ModelSpec, limits: BudgetLimits, field?: string): Price | undefined {
  const price = modelPrice(spec);
  if (price === undefined && limits.maxCost !== undefined)
    throw new InputError(
      `no price is known for ${specLabel(spec)}, so --max-cost cannot count its calls: set price: { input, output } (USD per million tokens) on it in waver.yaml`,
      field === undefined ? {} : { field },
    );
  return price;
}

function costUsd(price: Price, tokens: { input: number; output: number }): number {
  return (tokens.input * price.input + tokens.output * price.output) / 1e6;
}

/**
 * The tokens an answer says it used; undefined when it says none (every prompt has a token, so a
 * generation reporting 0 prompt tokens came from a server that does not count them; a score
 * reports none).
 */
function reportedTokens(call: ProviderCall, result: unknown): { input: number; output: number } | undefined {
  if (call.kind === 'generate') {
    const usage = (result as GenerateResult).usage;
    return usage && usage.inputTokens > 0
      ? { input: usage.inputTokens, output: usage.outputTokens }
      : undefined;
  }
  if (call.kind === 'embed') {
    const input = (result as EmbedResult).usage?.inputTokens;
    return input ? { input, output: 0 } : undefined;
  }
  return undefined;
}
