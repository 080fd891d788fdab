import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { InputError } from '../../errors.js';
import type { RegistryContext } from '../../protocols/adapters.js';
import { reportedProtocols } from '../../report/reported-protocols.js';
import { packageFile } from '../../util/package-file.js';
import { startViewer } from '../../view/server.js';
import { openUrl } from '../open-url.js';

/**
 * `waver view`: serves stores (their HTML report, their runs, a running run's live progress) and
 * report files on 127.0.0.1 until Ctrl-C. The URL goes alone on stdout, so a script can read it.
 */
export function viewCommand(ctx: RegistryContext): Command {
  const collect = (v: string, prev: string[]) => [...prev, v];
  return new Command('view')
    .description("serve stores and reports on 127.0.0.1, with a running run's progress updating live")
    .option(
      '--store <file>',
      'a store to serve (repeatable; default .waver/store.db when no --report is given)',
      collect,
      [],
    )
    .option('--report <file>', 'a report file to serve (repeatable)', collect, [])
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--port <n>', 'port (0 = any free port)', '0')
    .option('--allow-remote', 'allow binding a non-loopback address (the viewer has no authentication)')
    .option('--open', 'open the viewer in the browser ($BROWSER, else the system opener)')
    .action(
      async (opts: {
        store: string[];
        report: string[];
        host: string;
        port: string;
        allowRemote?: boolean;
        open?: boolean;
      }) => {
        const port = Number(opts.port);
        if (!/^\d+$/.test(opts.port) || port > 65535)
          throw new InputError(`not a port: '${opts.port}'`, { field: '--port' });
        const stores = opts.store.length === 0 && opts.report.length === 0 ? ['.waver/store.db'] : opts.store;
        const viewer = await startViewer({
          protocols: await reportedProtocols(ctx.protocols),
          stores,
          reports: opts.report,
          host: opts.host,
          port,
          allowRemote: opts.allowRemote,
          // Off the server's event loop: a large store's report and a search through its cells.
          workers: {
            queries: packageFile('dist/cli/query-worker.js'),
            reports: packageFile('dist/cli/report-worker.js'),
          },
        });
        process.stdout.write(`${viewer.url}\n`);
        const unopened = opts.open ? await openUrl(viewer.url) : undefined;
        if (unopened)
          process.stderr.write(`waver view: could not open a browser (${unopened}); open ${viewer.url}\n`);
        for (const s of stores)
          if (!existsSync(s))
            process.stderr.write(`waver view: ${s} does not exist yet; it will show once a run creates it\n`);
        process.stderr.write(
          `waver view: serving ${stores.length} store(s), ${opts.report.length} report(s) on ${viewer.url} (Ctrl-C to stop)\n`,
        );
        await new Promise<void>((resolve) => {
          process.once('SIGINT', () => resolve());
          process.once('SIGTERM', () => resolve());
        });
        await viewer.close();
      },
    );
}
