/**
 * Progress of a run on stderr: a bar redrawn in place on a TTY, plain lines every few seconds
 * otherwise (CI logs, pipes), so a log never fills with carriage-return noise.
 */
export interface ProgressSnapshot {
  total: number;
  done: number;
  failed: number;
  cached: number;
  pending: number;
  tokensIn: number;
  tokensOut: number;
  elapsedMs: number;
  errorsByKind: Record<string, number>;
  /** Provider batches, when the run uses them (docs/batch.md). */
  batches?: { batches: number; ended: number; requests: number; answered: number };
}

export interface ProgressView {
  update(p: ProgressSnapshot): void;
  finish(p: ProgressSnapshot): void;
}

export function createProgress(
  stream: NodeJS.WriteStream = process.stderr,
  opts: { label?: string; intervalMs?: number; quiet?: boolean } = {},
): ProgressView {
  if (opts.quiet) return { update() {}, finish() {} };
  const tty = Boolean(stream.isTTY);
  const interval = opts.intervalMs ?? (tty ? 100 : 5000);
  let last = 0;
  const label = opts.label ? `${opts.label} ` : '';
  const render = (p: ProgressSnapshot): string =>
    formatProgress(p, tty ? Math.max(10, (stream.columns ?? 80) - 90) : 0);
  return {
    update(p) {
      const now = Date.now();
      if (now - last < interval) return;
      last = now;
      if (tty) stream.write(`\r\x1b[2K${label}${render(p)}`);
      else stream.write(`${label}${render(p)}\n`);
    },
    finish(p) {
      if (tty) stream.write(`\r\x1b[2K${label}${render(p)}\n`);
      else stream.write(`${label}${render(p)}\n`);
    },
  };
}

/** One line: bar, counts, rate, ETA, cache hits, errors, tokens. */
export function formatProgress(p: ProgressSnapshot, barWidth = 0): string {
  const finished = p.done + p.failed;
  const fraction = p.total === 0 ? 1 : finished / p.total;
  const seconds = p.elapsedMs / 1000;
  const called = finished - p.cached;
  const rate = seconds > 0 ? called / seconds : 0;
  const eta = rate > 0 ? (p.total - finished) / rate : undefined;
  const bar = barWidth > 0 ? `[${'#'.repeat(Math.round(fraction * barWidth)).padEnd(barWidth, '.')}] ` : '';
  const errors = Object.entries(p.errorsByKind)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    `${bar}${finished}/${p.total} cells (${(fraction * 100).toFixed(0)}%)`,
    `${rate.toFixed(1)} cells/s`,
    `ETA ${eta === undefined ? '-' : formatSeconds(eta)}`,
    `cached ${p.cached}`,
    `failed ${p.failed}${errors ? ` (${errors})` : ''}`,
    `tokens ${p.tokensIn} in / ${p.tokensOut} out`,
    ...(p.batches
      ? [
          `batches ${p.batches.ended}/${p.batches.batches} ended, requests ${p.batches.answered}/${p.batches.requests} answered`,
        ]
      : []),
  ].join(' | ');
}

/** `59s`, `1m40s`, `2h05m`: rounded first, so 119.7 s is 2m00s, never 1m60s. */
function formatSeconds(s: number): string {
  const seconds = Math.round(s);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${twoDigits(seconds % 60)}s`;
  const minutes = Math.round(s / 60);
  return `${Math.floor(minutes / 60)}h${twoDigits(minutes % 60)}m`;
}

function twoDigits(n: number): string {
  return String(n).padStart(2, '0');
}
