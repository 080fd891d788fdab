import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the foundations tell whoever shows a run, outside its stages and cells: a file being
 * downloaded (a dataset, a model), or a note (the Hub unreachable, its cache served). The library
 * never writes them to a terminal; a caller sees them through `onNotice` (ProtocolOptions) and the
 * CLI renders them on stderr (docs/library.md#notices).
 */
export type Notice =
  | { kind: 'download'; name: string; received: number; total?: number }
  | { kind: 'note'; text: string };

export type NoticeSink = (notice: Notice) => void;

/** The sink of the innermost `withNotices`; inside one without a sink (a library call) its `sink` is undefined. */
const scoped = new AsyncLocalStorage<{ sink: NoticeSink | undefined }>();
let outside: NoticeSink | undefined;

/** `f`, its notices (and those of everything it awaits) handed to `sink`; none shown without one. */
export function withNotices<T>(sink: NoticeSink | undefined, f: () => T): T {
  return scoped.run({ sink }, f);
}

/**
 * Where notices raised outside any `withNotices` go: the CLI sets stderr once, for the commands
 * that download without a protocol's run (a served model, the demo); a library leaves it unset.
 */
export function showNoticesOutsideRuns(sink: NoticeSink): void {
  outside = sink;
}

/** Tells the sink in force, if any. */
export function notify(notice: Notice): void {
  const scope = scoped.getStore();
  (scope ? scope.sink : outside)?.(notice);
}
