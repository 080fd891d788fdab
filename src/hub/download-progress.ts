/** A download's progress and its display, apart from the downloader: every command can print it. */

export interface DownloadProgress {
  received: number;
  total?: number;
}

/**
 * The default progress display: a redrawn bar when stderr is a terminal, otherwise a plain line
 * every 10% (or every 5 s when the size is unknown), so logs stay readable.
 */
export function progressPrinter(
  name: string,
  out: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): (p: DownloadProgress) => void {
  const start = now();
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastDecile = -1;
  let lastLine = start;
  let finished = false;
  return ({ received, total }) => {
    if (finished) return;
    const t = now();
    const done = total !== undefined && received >= total;
    const mbps = received / 1e6 / Math.max(0.001, (t - start) / 1000);
    const pct = total ? Math.min(100, (received / total) * 100) : undefined;
    const size = `${mb(received)}${total !== undefined ? ` / ${mb(total)}` : ''} MB`;
    if (out.isTTY) {
      if (!done && t - lastDraw < 100) return;
      lastDraw = t;
      const width = 24;
      const filled = pct === undefined ? 0 : Math.round((pct / 100) * width);
      const bar =
        pct === undefined ? '' : `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct.toFixed(0)}% `;
      out.write(`\r${name} ${bar}${size} ${mbps.toFixed(1)} MB/s\x1b[K${done ? '\n' : ''}`);
    } else {
      const decile = pct === undefined ? -1 : Math.floor(pct / 10);
      const due = pct === undefined ? t - lastLine >= 5000 : decile > lastDecile;
      if (!due && !done) return;
      lastDecile = decile;
      lastLine = t;
      out.write(
        `downloading ${name}: ${pct !== undefined ? `${pct.toFixed(0)}%, ` : ''}${size}, ${mbps.toFixed(1)} MB/s\n`,
      );
    }
    if (done) finished = true;
  };
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
