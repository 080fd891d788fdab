#!/usr/bin/env node
import { Command } from 'commander';
import { InputError } from '../errors.js';
import { ProviderError } from '../models/errors.js';
import { WAVER_VERSION } from '../version.js';
import { checkCommand } from './commands/check.js';
import { demoCommand } from './commands/demo.js';
import { exportCommand } from './commands/export.js';
import { ladderCommand } from './commands/ladder.js';
import { paraphraseCommand } from './commands/paraphrase.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { sagoCommand } from './commands/sago.js';
import { schemaCommand } from './commands/schema.js';
import { serveCommand } from './commands/serve.js';
import { suiteCommand } from './commands/suite.js';
import { viewCommand } from './commands/view.js';
import { EXIT } from './output.js';

const program = new Command('waver')
  .description(
    "measure how much a language model's behaviour wavers when the same question is asked differently",
  )
  .version(WAVER_VERSION)
  .showHelpAfterError()
  .addCommand(demoCommand())
  .addCommand(ladderCommand())
  .addCommand(paraphraseCommand())
  .addCommand(sagoCommand())
  .addCommand(suiteCommand())
  .addCommand(runCommand())
  .addCommand(reportCommand())
  .addCommand(checkCommand())
  .addCommand(viewCommand())
  .addCommand(serveCommand())
  .addCommand(exportCommand())
  .addCommand(schemaCommand());

try {
  await program.parseAsync(process.argv);
} catch (e) {
  process.exitCode = report(e);
}

/** One clear line on stderr and an exit code that says what kind of failure it was. */
function report(e: unknown): number {
  if (e instanceof InputError) {
    process.stderr.write(`waver: ${e.format()}\n`);
    return EXIT.input;
  }
  // A model that cannot be fetched or opened is the user's to fix, like bad input.
  if ((e as Error)?.name === 'DownloadError') {
    process.stderr.write(`waver: ${(e as Error).message}\n`);
    return EXIT.input;
  }
  if (e instanceof ProviderError && (e.kind === 'auth' || e.kind === 'client' || e.kind === 'unsupported')) {
    process.stderr.write(`waver: ${e.message}\n`);
    return EXIT.input;
  }
  const err = e as Error;
  process.stderr.write(`waver: internal error: ${err?.message ?? String(e)}\n`);
  if (process.env.WAVER_DEBUG) process.stderr.write(`${err?.stack ?? ''}\n`);
  return EXIT.internal;
}
