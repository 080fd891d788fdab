import type { Server } from 'node:http';
import { InputError } from '../errors.js';

/**
 * Listens on `host:port` (0: any free port). A port that is taken or not allowed is the user's to
 * change: an InputError naming it and `--port`, not an internal error.
 */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      if (error.code === 'EADDRINUSE')
        reject(
          new InputError(
            `${where} is in use (EADDRINUSE): pass another --port, or --port 0 for any free one`,
            { field: '--port' },
          ),
        );
      else if (error.code === 'EACCES')
        reject(
          new InputError(`${where} may not be listened on by this user (EACCES): pass a port above 1023`, {
            field: '--port',
          }),
        );
      else if (error.code === 'EADDRNOTAVAIL')
        reject(new InputError(`${where}: no such local address (EADDRNOTAVAIL)`, { field: '--host' }));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
