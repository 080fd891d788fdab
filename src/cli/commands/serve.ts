import { basename } from 'node:path';
import { Command } from 'commander';
import { InputError } from '../../errors.js';
import { activeProviders, createProvider, describeProvider } from '../../models/registry.js';
import { MAX_TIMER_MS, toModelSpec } from '../../models/spec.js';
import { startOpenAIServer } from '../../server/openai-server.js';
import { SERVE_TIMEOUT_MS } from '../../server/served-model.js';

export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'serve a local gguf: model as an OpenAI-compatible HTTP API (chat, completions, embeddings, models)',
    )
    .requiredOption(
      '--model <spec>',
      'the model, e.g. gguf:./model.gguf, gguf:hf:OWNER/REPO/FILE.gguf or gguf:./model.gguf?ctx=4096',
    )
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--port <n>', 'port (0 = any free port)', '8080')
    .option('--allow-remote', 'allow binding a non-loopback address (the API has no authentication)')
    .option('--context-size <n>', 'context window in tokens')
    .option('--max-storage-mb <n>', 'what uploaded and batch output files may hold together, MiB', '1024')
    .option(
      '--file-ttl-hours <n>',
      'life of a file uploaded without expires_after, and of batch output',
      '720',
    )
    .option(
      '--timeout-ms <n>',
      'a generation, score or embedding past it is a 500 timeout',
      String(SERVE_TIMEOUT_MS),
    )
    .option('--max-retries <n>', 'retries after a transient model error (the client retries too)', '0')
    .action(async (flags: ServeFlags) => serve(flags));
}

interface ServeFlags {
  model: string;
  host: string;
  port: string;
  allowRemote?: boolean;
  contextSize?: string;
  maxStorageMb: string;
  fileTtlHours: string;
  timeoutMs: string;
  maxRetries: string;
}

/** Serves the model until SIGINT or SIGTERM, then closes the server and the model. */
async function serve(flags: ServeFlags): Promise<void> {
  const { spec, port, maxStorageBytes, fileTtlSeconds, calls } = serveSettings(flags);
  const provider = await createProvider(spec);
  // A port in use: the model is closed too, so the process exits with the error line.
  const server = await startOpenAIServer({
    provider,
    // The file's name alone: its directory is nobody's business, and a `?ctx=` query or
    // `#sha256=` pin in a model id would break `/v1/models/ID`.
    modelName: basename(spec.model.replace(/[?#].*$/, '')),
    host: flags.host,
    port,
    allowRemote: flags.allowRemote,
    maxStorageBytes,
    fileTtlSeconds,
    calls,
    log: (line) => process.stderr.write(`${line}\n`),
  }).catch(async (e: unknown) => {
    await provider.close?.();
    throw e;
  });
  // The URL on stdout alone, so a script can read it; everything else goes to stderr.
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`waver serve: ${provider.identity} on ${server.url} (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await provider.close?.();
}

/** The flags checked, each bad value an input error naming its flag, before the model is loaded. */
function serveSettings(flags: ServeFlags) {
  const spec = toModelSpec(flags.model, { field: '--model' });
  // It serves tokens, log-probs and hidden states as they are made: a model run in this process.
  if (!describeProvider(spec.provider)?.inProcess)
    throw new InputError(
      `serve takes a model run in this process (${inProcessPrefixes()}), got '${flags.model}'`,
      {
        field: '--model',
      },
    );
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InputError(`not a port: '${flags.port}'`, { field: '--port' });
  if (flags.contextSize !== undefined) {
    const n = Number(flags.contextSize);
    if (!Number.isInteger(n) || n <= 0)
      throw new InputError(`expected a positive integer, got '${flags.contextSize}'`, {
        field: '--context-size',
      });
    spec.contextSize = n;
  }
  return {
    spec,
    port,
    maxStorageBytes: Math.floor(positive(flags.maxStorageMb, '--max-storage-mb') * 1024 * 1024),
    fileTtlSeconds: positive(flags.fileTtlHours, '--file-ttl-hours') * 3600,
    calls: {
      timeoutMs: whole(flags.timeoutMs, '--timeout-ms', 1, MAX_TIMER_MS),
      maxRetries: whole(flags.maxRetries, '--max-retries', 0, Number.MAX_SAFE_INTEGER),
    },
  };
}

function inProcessPrefixes(): string {
  const providers = activeProviders();
  return providers
    .names()
    .filter((name) => providers.get(name)?.inProcess)
    .map((name) => `${name}:`)
    .join(', ');
}

function positive(text: string, field: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new InputError(`expected a positive number, got '${text}'`, { field });
  return n;
}

/** A whole number from `min` to `max`, or an InputError naming the flag. */
function whole(text: string, field: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new InputError(`expected a whole number from ${min} to ${max}, got '${text}'`, { field });
  return n;
}
