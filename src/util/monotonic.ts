/**
 * Milliseconds on a monotonic clock, as `performance.now()` gives them, without loading perf_hooks:
 * the global `performance` loads a dozen of Node's modules at its first use (~2 ms of each run).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
