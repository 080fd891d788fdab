/**
 * A server's routes: a method and a path pattern to a handler, shared by `waver serve`
 * (`server/openai-server.ts`) and `waver view` (`view/server.ts`). A path no route has is a 404,
 * and a path whose routes take other methods a 405 naming them (the `Allow` header); each server
 * answers those in its own format (OpenAI's JSON error, the viewer's text).
 */

/** Path parameters by name, each as it stands in the path (%-escapes left to the handler). */
export type PathParams = Readonly<Record<string, string>>;

export interface Route<C> {
  method: string;
  /**
   * Segments separated by `/`: literal ones, and `:name` ones that take any one segment. A last
   * `:name*` takes the rest of the path (one segment or more, with their slashes).
   */
  path: string;
  handle(exchange: C, params: PathParams): Promise<void> | void;
}

/** What a request found: its handler, bound to its path's parameters, or why none. */
export type Routed<C> =
  | { handle: (exchange: C) => Promise<void> | void }
  | { status: 404 }
  | { status: 405; allow: readonly string[] };

export interface RouteTableOptions {
  /** GET routes answer HEAD too (the handler leaves the body out). */
  headAsGet?: boolean;
}

interface Compiled<C> {
  route: Route<C>;
  segments: readonly string[];
  /** The last segment takes the rest of the path. */
  rest: boolean;
}

export class RouteTable<C> {
  private readonly routes: readonly Compiled<C>[];

  constructor(
    routes: readonly Route<C>[],
    private readonly opts: RouteTableOptions = {},
  ) {
    this.routes = routes.map((route) => {
      const segments = route.path.split('/');
      const last = segments.at(-1) ?? '';
      const rest = last.startsWith(':') && last.endsWith('*');
      if (rest) segments[segments.length - 1] = last.slice(0, -1);
      return { route, segments, rest };
    });
  }

  find(method: string, path: string): Routed<C> {
    const parts = path.split('/');
    const allow: string[] = [];
    for (const { route, segments, rest } of this.routes) {
      const params = match(segments, rest, parts);
      if (!params) continue;
      if (this.answers(route.method, method)) return { handle: (exchange) => route.handle(exchange, params) };
      allow.push(route.method);
      if (this.opts.headAsGet && route.method === 'GET') allow.push('HEAD');
    }
    return allow.length === 0 ? { status: 404 } : { status: 405, allow: [...new Set(allow)] };
  }

  private answers(routeMethod: string, method: string): boolean {
    return (
      routeMethod === method || (this.opts.headAsGet === true && routeMethod === 'GET' && method === 'HEAD')
    );
  }
}

/** The path's parameters when `parts` match the pattern's segments, else undefined. */
function match(segments: readonly string[], rest: boolean, parts: readonly string[]): PathParams | undefined {
  if (rest ? parts.length < segments.length : parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    const part = parts[i] ?? '';
    if (!segment.startsWith(':')) {
      if (part !== segment) return undefined;
      continue;
    }
    const value = rest && i === segments.length - 1 ? parts.slice(i).join('/') : part;
    if (value === '') return undefined;
    params[segment.slice(1)] = value;
  }
  return params;
}
