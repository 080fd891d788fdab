import type { IncomingMessage } from 'node:http';

/**
 * Who may talk to waver's two loopback servers (`waver serve`, `waver view`): local programs, not
 * web pages. A server bound to loopback answers only a Host that names loopback or its own
 * address, so a page elsewhere cannot reach it through DNS rebinding; and a request a browser
 * marks as sent from another origin (its `Origin` header, or `Sec-Fetch-Site: cross-site` /
 * `same-site`) is refused, so a page cannot post to it (CSRF). Non-browser clients send neither
 * header. docs/batch.md#who-may-call-waver-serve.
 */

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h)
  );
}

/** The host name of a Host header (`127.0.0.1:8080`, `[::1]:80`, `localhost`). */
export function hostName(header: string | undefined): string {
  if (!header) return '';
  if (header.startsWith('[')) return header.slice(1, header.indexOf(']'));
  return header.replace(/:\d+$/, '');
}

export interface OriginPolicy {
  /** The address the server is bound to. When it is loopback, only loopback Hosts are answered. */
  boundHost: string;
}

/** Why the request is refused, or undefined when it is welcome. */
export function foreignRequest(req: IncomingMessage, policy: OriginPolicy): string | undefined {
  const host = hostName(req.headers.host);
  if (isLoopbackHost(policy.boundHost) && !isLoopbackHost(host) && host !== policy.boundHost)
    return `the Host ${JSON.stringify(req.headers.host ?? '')} is not this loopback server`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`)
    return `requests from the web origin ${JSON.stringify(origin)} are refused`;
  const site = req.headers['sec-fetch-site'];
  // `none`: typed into the address bar; `same-origin`: the server's own page.
  if (site !== undefined && site !== 'none' && site !== 'same-origin')
    return `requests a browser marks as ${site} are refused`;
  return undefined;
}
