import { spawn } from 'node:child_process';

/**
 * Opens a URL in the user's browser: `$BROWSER` when set (the usual convention), else the
 * platform's opener (`open`, `xdg-open`, `start`). Resolves to why it could not, or undefined; a
 * browser that cannot be started never stops the caller (the URL is printed anyway).
 */
export function openUrl(url: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const [command, args] = env.BROWSER
    ? [env.BROWSER, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, env });
    child.once('error', (e) => resolve(`${command}: ${e.message}`));
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
}
