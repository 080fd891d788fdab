import type { ModelProvider } from '../../models/types.js';
import type { Store } from '../../store/store.js';
import { callPath } from '../call-path/call-path.js';
import { type CallClock, type CallLimits, type LimitDefaults, mergeLimits } from '../call-path/limits.js';
import { StoredAnswers, storeCache, storeCached } from '../call-path/store-cache.js';
import { isWrapped, wrapProvider } from '../call-path/wrap-provider.js';
import { ModelIdentities } from '../cell-writer.js';
import type { Cell } from '../types.js';
import { DoneCells } from './done-cells.js';

/**
 * How one model (by label) is called. A bare provider is wrapped here in the call path
 * (`call-path/`) built from these limits, unset ones falling back to the run's defaults. A provider
 * that is already wrapped (a ProviderPool's) brings its own path, shared with the model's other
 * calls, and only `concurrency` (cells in progress at once) applies.
 */
export interface ModelEntry {
  provider: ModelProvider;
  concurrency?: number;
  /** Requests per minute (token bucket). */
  rpm?: number;
  /** Tokens per minute (token bucket; estimated before a call, corrected with usage after). */
  tpm?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

/** One model's cells in a run: its provider in its call path, the cells read for it and those in progress. */
export interface Lane {
  label: string;
  identity: string;
  concurrency: number;
  /** Cells read for this lane and not started yet. */
  waiting: Work[];
  /** Cells of this lane in progress. */
  active: number;
  /** The entry's provider in its call path (under the store's cache, with the cache on). */
  provider: ModelProvider;
  /** Its cells stored done (with the cache on). */
  done?: DoneCells;
}

/** A cell read for its lane, with its request's cache key. */
export interface Work {
  cell: Cell;
  lane: Lane;
  key: string;
}

/** The store a run with the cache on answers from (docs/decisions.md E45). */
export interface LaneCache {
  store: Store;
  suiteHash: string;
  /** No other worker finishes this run's cells meanwhile (no leases): its done cells are read once. */
  settled: boolean;
}

/** The run's limits, which a model's own entry overrides (`mergeLimits`). */
export interface LaneDefaults extends LimitDefaults {
  concurrency: number;
}

/** A lane holds up to a few times its concurrency of cells waiting: the run's memory (docs/decisions.md E16). */
export function hasRoom(lane: Lane): boolean {
  return lane.waiting.length < Math.max(64, 4 * lane.concurrency);
}

/** The run's lanes by model label, each opened when its first cell is read. */
export class Lanes {
  private readonly byLabel = new Map<string, Lane>();
  private readonly identities = new ModelIdentities();

  constructor(
    private readonly entries: ReadonlyMap<string, ModelEntry>,
    private readonly defaults: LaneDefaults,
    private readonly clock: CallClock,
    private readonly cache?: LaneCache,
  ) {}

  of(label: string): Lane {
    return this.byLabel.get(label) ?? this.open(label);
  }

  /** An array of cells may not list one twice (a generator is trusted: memory, docs/decisions.md E16). */
  checkListedOnce(cells: readonly Cell[]): void {
    const seen = new Set<string>();
    for (const cell of cells) {
      const slot = `${this.of(cell.model).identity}\u0000${cell.testId}\u0000${cell.repeat}`;
      if (seen.has(slot))
        throw new Error(
          `cell listed twice: test "${cell.testId}", repeat ${cell.repeat}, model "${cell.model}"`,
        );
      seen.add(slot);
    }
  }

  private open(label: string): Lane {
    const entry = this.entries.get(label);
    if (!entry) throw new Error(`no provider for model "${label}"`);
    const identity = entry.provider.identity;
    this.identities.add(label, identity);
    const limits = mergeLimits(entry, this.defaults);
    const concurrency = Math.max(1, limits.concurrency ?? this.defaults.concurrency);
    const { cache } = this;
    const lane: Lane = {
      label,
      identity,
      concurrency,
      waiting: [],
      active: 0,
      provider: this.inPath(entry.provider, { ...limits, concurrency }),
      ...(cache && { done: new DoneCells(cache.store, cache.suiteHash, identity, cache.settled) }),
    };
    this.byLabel.set(label, lane);
    return lane;
  }

  /**
   * The entry's provider in the "run" path, with the store's cache outermost when the cache is on.
   * A pool's provider brings its path: the cache goes around it.
   */
  private inPath(provider: ModelProvider, limits: CallLimits): ModelProvider {
    const { cache } = this;
    if (isWrapped(provider)) return cache ? storeCached(cache.store, provider) : provider;
    const stored = cache && storeCache(new StoredAnswers(cache.store, provider.identity));
    return wrapProvider(provider, callPath({ ...limits, ...(stored && { cache: stored }) }, this.clock));
  }
}
