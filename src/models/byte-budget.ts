/**
 * The bytes of answer bodies the calls of a process hold while they read them
 * (docs/architecture.md#bounds-on-what-a-call-takes). One body may grow to `limit` bytes; the bodies
 * being read hold about `limit` together too: a call whose chunk takes them past it pauses (its
 * server waits on TCP's flow control), except the call that began reading first, which reads on to
 * its own limit, so some call always ends and frees its bytes. Held at once: under twice `limit`
 * (plus a chunk per call), whatever the concurrency; a body held whole belongs to its caller.
 */
export class ByteBudget {
  private held = 0;
  /** Bodies being read, in the order they began (a Set keeps it). */
  private readonly reads = new Set<BodyRead>();
  /** The most bytes held at once so far. */
  peak = 0;

  constructor(readonly limit: number) {}

  /** A body begins; `pause` and `resume` hold its reading back and let it go on. */
  open(pause: () => void, resume: () => void): BodyRead {
    const read = new BodyRead(this, pause, resume);
    this.reads.add(read);
    return read;
  }

  /** Counts a chunk; false when its body passed the limit (the caller drops the body). */
  take(read: BodyRead, bytes: number): boolean {
    read.bytes += bytes;
    this.held += bytes;
    this.peak = Math.max(this.peak, this.held);
    if (read.bytes > this.limit) return false;
    if (this.held > this.limit && this.first() !== read) read.hold();
    return true;
  }

  /** The body ended, failed or was dropped: its bytes are the caller's or garbage, no longer the budget's. */
  release(read: BodyRead): void {
    if (!this.reads.delete(read)) return;
    this.held -= read.bytes;
    const first = this.first();
    if (first) first.go();
    if (this.held <= this.limit) for (const r of this.reads) r.go();
  }

  private first(): BodyRead | undefined {
    return this.reads.values().next().value;
  }
}

/** One body's reading under a budget. */
export class BodyRead {
  bytes = 0;
  private paused = false;

  constructor(
    private readonly budget: ByteBudget,
    private readonly pause: () => void,
    private readonly resume: () => void,
  ) {}

  /** Counts a chunk of the body; false when the body passed the budget's limit. */
  take(bytes: number): boolean {
    return this.budget.take(this, bytes);
  }

  /** The body is through (read whole, failed or dropped); a second call does nothing. */
  close(): void {
    this.budget.release(this);
  }

  hold(): void {
    if (this.paused) return;
    this.paused = true;
    this.pause();
  }

  go(): void {
    if (!this.paused) return;
    this.paused = false;
    this.resume();
  }
}

const budgets = new Map<number, ByteBudget>();

/** The process's budget for bodies of at most `limit` bytes: every call with that cap shares it. */
export function budgetFor(limit: number): ByteBudget {
  let budget = budgets.get(limit);
  if (!budget) {
    budget = new ByteBudget(limit);
    budgets.set(limit, budget);
  }
  return budget;
}
