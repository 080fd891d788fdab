import { type DownloadProgress, progressPrinter } from '../hub/download-progress.js';
import type { NoticeSink } from '../util/notices.js';

/**
 * How a command shows the foundations' notices on stderr: each download's progress (a redrawn bar
 * on a terminal, a line every 10% in a log) and each note as a line. The library shows none.
 */
export function stderrNotices(): NoticeSink {
  const downloads = new Map<string, (p: DownloadProgress) => void>();
  return (notice) => {
    if (notice.kind === 'note') {
      process.stderr.write(`${notice.text}\n`);
      return;
    }
    const show = downloads.get(notice.name) ?? progressPrinter(notice.name);
    downloads.set(notice.name, show);
    show(notice);
  };
}
