import { describe, expect, it } from 'vitest';
import { type PathParams, type Routed, RouteTable } from './route-table.js';

/** What the handler a request found was given: its route's name and the path's parameters. */
type Seen = { route: string; params: PathParams };
const route = (method: string, path: string) => ({
  method,
  path,
  handle: (seen: Seen[], params: PathParams) => {
    seen.push({ route: `${method} ${path}`, params });
  },
});

async function ask(table: RouteTable<Seen[]>, method: string, path: string) {
  const found: Routed<Seen[]> = table.find(method, path);
  if (!('handle' in found)) return found;
  const seen: Seen[] = [];
  await found.handle(seen);
  return seen[0];
}

describe('RouteTable', () => {
  const table = new RouteTable([
    route('GET', '/v1/files'),
    route('POST', '/v1/files'),
    route('GET', '/v1/files/:id'),
    route('DELETE', '/v1/files/:id'),
    route('GET', '/v1/files/:id/content'),
    route('GET', '/v1/models/:id*'),
  ]);

  it('finds the route of a method and path, with its parameters', async () => {
    expect(await ask(table, 'POST', '/v1/files')).toEqual({ route: 'POST /v1/files', params: {} });
    expect(await ask(table, 'DELETE', '/v1/files/file-1')).toEqual({
      route: 'DELETE /v1/files/:id',
      params: { id: 'file-1' },
    });
    expect(await ask(table, 'GET', '/v1/files/a%2Fb/content')).toEqual({
      route: 'GET /v1/files/:id/content',
      params: { id: 'a%2Fb' },
    });
  });

  it('a last `:name*` takes the rest of the path, slashes and all', async () => {
    expect(await ask(table, 'GET', '/v1/models/org/model')).toEqual({
      route: 'GET /v1/models/:id*',
      params: { id: 'org/model' },
    });
    expect(await ask(table, 'GET', '/v1/models/')).toEqual({ status: 404 });
  });

  it('a path no route has is a 404; a path of other methods a 405 naming them', async () => {
    expect(await ask(table, 'GET', '/v1/nope')).toEqual({ status: 404 });
    expect(await ask(table, 'GET', '/v1/files/a/b')).toEqual({ status: 404 });
    expect(await ask(table, 'GET', '/v1/files/')).toEqual({ status: 404 });
    expect(await ask(table, 'PUT', '/v1/files')).toEqual({ status: 405, allow: ['GET', 'POST'] });
    expect(await ask(table, 'POST', '/v1/files/x')).toEqual({ status: 405, allow: ['GET', 'DELETE'] });
    expect(await ask(table, 'HEAD', '/v1/files')).toEqual({ status: 405, allow: ['GET', 'POST'] });
  });

  it('with headAsGet, GET routes answer HEAD too, and a 405 names both', async () => {
    const viewer = new RouteTable([route('GET', '/'), route('GET', '/stores/:n')], { headAsGet: true });
    expect(await ask(viewer, 'HEAD', '/stores/1')).toEqual({ route: 'GET /stores/:n', params: { n: '1' } });
    expect(await ask(viewer, 'POST', '/')).toEqual({ status: 405, allow: ['GET', 'HEAD'] });
  });
});
