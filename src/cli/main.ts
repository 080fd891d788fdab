/**
 * The CLI: every command, its exit code and its one-line errors. The executable is `launcher.ts`,
 * which runs this module's bundle (docs/decisions.md E41); `void main()` at the end runs it.
 */
import { existsSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { consistentHelp } from '../command-kit/help.js';
import { stderrNotices } from '../command-kit/notices.js';
import { EXIT } from '../command-kit/output.js';
import { DEFAULT_CONFIG_FILE } from '../config/load.js';
import { InputError } from '../errors.js';
import { ProviderError } from '../models/errors.js';
import { type RegistryContext, withAdapters } from '../protocols/adapters.js';
import { CONFIG, PROTOCOLS } from '../protocols/index.js';
import { showNoticesOutsideRuns } from '../util/notices.js';
import { WAVER_VERSION } from '../version.js';
import { setCliV8Flags } from './v8-flags.js';

setCliV8Flags(process.argv[2]);

// Downloads and the Hub's notes show on stderr here; the library shows them nowhere (docs/library.md#notices).
showNoticesOutsideRuns(stderrNotices());

/** Parses the command line and runs the command it names (no top-level await: the bundle is CommonJS). */
async function main(): Promise<void> {
  /** What every command is handed: the protocols with their adapters, and waver.yaml as their sections make it. */
  const ctx: RegistryContext = { protocols: await withAdapters(PROTOCOLS), config: CONFIG };

  /**
   * Each command's module, loaded only when that command runs: the protocols, the report (vega) and
   * the local model runtime are heavy, and `waver run` should not pay for `waver sago`'s imports in
   * start-up time and memory. Help and unknown commands load them all. The protocols' commands are
   * theirs (`ladder`, `suite`, `sago`, `paraphrase`, `run`), and so are the kinds of `waver import`.
   */
  const COMMANDS: Record<string, (ctx: RegistryContext) => Promise<Command>> = {
    demo: async (c) => (await import('../demo/command.js')).demoCommand(c),
    ...Object.fromEntries(ctx.protocols.flatMap((p) => Object.entries(p.commands))),
    import: async (c) => (await import('./commands/import.js')).importCommand(c),
    report: async (c) => (await import('./commands/report.js')).reportCommand(c),
    check: async (c) => (await import('./commands/check.js')).checkCommand(c),
    view: async (c) => (await import('./commands/view.js')).viewCommand(c),
    judge: async (c) => (await import('./commands/judge.js')).judgeCommand(c),
    plan: async (c) => (await import('./commands/plan.js')).planCommand(c),
    serve: async () => (await import('./commands/serve.js')).serveCommand(),
    export: async (c) => (await import('./commands/export.js')).exportCommand(c),
    merge: async () => (await import('./commands/merge.js')).mergeCommand(),
    schema: async (c) => (await import('./commands/schema.js')).schemaCommand(c),
  };

  const program = new Command('waver')
    .description(
      "measure how much a language model's behaviour wavers when the same question is asked differently",
    )
    .version(WAVER_VERSION)
    .showHelpAfterError();

  // waver.yaml's `providers:` and `ladder.familyModules` are registered before a command reads its config (docs/providers.md#from-waveryaml).
  program.hook('preAction', async (_program, action) => {
    const file = action.opts<{ config?: string }>().config ?? DEFAULT_CONFIG_FILE;
    if (!existsSync(file)) return;
    await (await import('../config/providers.js')).loadConfigProviders(file);
    await (await import('../protocols/ladder/families/modules.js')).loadConfigFamilies(file);
  });

  try {
    const requested = process.argv[2];
    // `--version` needs no command; help (and an unknown command's "did you mean") needs them all.
    const names =
      requested === '--version' || requested === '-V'
        ? []
        : requested !== undefined && requested in COMMANDS
          ? [requested]
          : Object.keys(COMMANDS);
    for (const name of names)
      program.addCommand(await (COMMANDS[name] as (ctx: RegistryContext) => Promise<Command>)(ctx));
    throwOnParseErrors(program);
    consistentHelp(program);
    await program.parseAsync(process.argv);
  } catch (e) {
    process.exitCode = report(e);
  }
}

/**
 * Commander's own errors (an unknown option or command, a bad choice, a missing value) are bad
 * input, exit 2 like every other (docs/decisions.md#e8-exit-codes), not commander's 1: it throws
 * them instead of exiting, after printing its message (with its "Did you mean"). Commands added
 * with addCommand do not inherit the setting, so each gets it.
 */
function throwOnParseErrors(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) throwOnParseErrors(sub);
}

/** One clear line on stderr and an exit code that says what kind of failure it was. */
function report(e: unknown): number {
  // Commander has printed its message; help and --version end with 0.
  if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.input;
  if (e instanceof InputError) {
    process.stderr.write(`waver: ${e.format()}\n`);
    return EXIT.input;
  }
  // A model that cannot be fetched or opened is the user's to fix, like bad input.
  if ((e as Error)?.name === 'DownloadError') {
    process.stderr.write(`waver: ${(e as Error).message}\n`);
    return EXIT.input;
  }
  if (e instanceof ProviderError && (e.stopsModel || e.kind === 'client' || e.kind === 'unsupported')) {
    process.stderr.write(`waver: ${e.message}\n`);
    return EXIT.input;
  }
  const err = e as Error;
  process.stderr.write(`waver: internal error: ${err?.message ?? String(e)}\n`);
  if (process.env.WAVER_DEBUG) process.stderr.write(`${err?.stack ?? ''}\n`);
  return EXIT.internal;
}

void main();
