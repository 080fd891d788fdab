import { EXIT, emit, withAbort } from '../command-kit/output.js';
import { createProgress } from '../command-kit/progress.js';
import type { WaverConfig } from '../config/schema.js';
import { formatAnswerNotes, formatEstimate, formatRunEnd } from '../report/run-summary.js';
import type { CallBudget } from '../run/budget.js';
import { CallsHalted } from '../run/call-path/middleware.js';
import { plannedModels } from '../run/plan.js';
import type { RunResult } from '../run/run-suite.js';
import type { Progress } from '../run/types.js';
import { withPool } from './define.js';
import type { Protocol, ProtocolOptions, RunOutcome } from './types.js';

/** How a command shows a run on stderr: its stage lines and a progress bar per stage. */
export interface RunView extends Pick<ProtocolOptions, 'onStage' | 'onProgress'> {
  /** The run is over: the last bar's final line. */
  finish(): void;
}

/**
 * A bar per stage: a stage's start ends the previous stage's bar and prints `line(stage, detail)`
 * when that gives a line; `label(stage)` labels its bar. Progress before any stage goes to a bar
 * labelled `first`.
 */
export function runView(opts: {
  line: (stage: string, detail: string) => string | undefined;
  label?: (stage: string) => string | undefined;
  first?: string;
}): RunView {
  let bar = createProgress(process.stderr, { label: opts.first });
  let last: Progress | undefined;
  const finish = () => {
    if (last) bar.finish(last);
    last = undefined;
  };
  return {
    onStage(stage, detail) {
      finish();
      const line = opts.line(stage, detail);
      if (line !== undefined) process.stderr.write(`${line}\n`);
      bar = createProgress(process.stderr, { label: opts.label?.(stage) });
    },
    onProgress(p) {
      last = p;
      bar.update(p);
    },
    finish,
  };
}

export interface ExecuteOptions<Plan> {
  /** The build's stage lines. */
  build?: Pick<ProtocolOptions, 'onStage'>;
  run: RunView;
  /** A line on stderr beside a dry run's estimate (what the plan holds). */
  dryRunNote?: (plan: Plan) => string;
}

/**
 * The one shape of a protocol command once its config is typed: build the plan, then estimate it
 * (`--dry-run`) or run it, print, and return the exit code (docs/decisions.md#e8-exit-codes). A
 * first Ctrl-C stops the build or the run; what is stored stays.
 */
export async function executeProtocol<Plan, Outcome extends RunOutcome>(
  protocol: Pick<Protocol<Plan, unknown, Outcome>, 'build' | 'estimate' | 'run' | 'summary'>,
  config: WaverConfig,
  io: ExecuteOptions<Plan>,
): Promise<number> {
  // The systems under test are read first: none, or a bad spec, is said before the build's work.
  plannedModels(config);
  // One pool for the command: a model the build calls (generator, gates) and the run calls again is one instance.
  const code = await withPool(config, {}, async ({ pool }) => {
    const stopped = { aborted: true, complete: false, runs: [] };
    const plan = await buildOrStop(protocol, config, { ...io.build, pool });
    if (plan === undefined) return endOfRun(stopped, [], config.cache, pool.budget);
    if (config.dryRun) {
      if (io.dryRunNote) process.stderr.write(`${io.dryRunNote(plan)}\n`);
      const estimates = await protocol.estimate(config, plan, { pool });
      emit(formatEstimate(estimates, config.format, pool.budget?.limits), config.out);
      return EXIT.ok;
    }
    const ran: RunResult[] = [];
    const outcome = await withAbort((signal) =>
      protocol
        .run(config, plan, {
          signal,
          pool,
          onStage: io.run.onStage,
          onProgress: io.run.onProgress,
          onRunEnd: (run) => ran.push(run),
        })
        .catch(unlessHalted),
    );
    io.run.finish();
    // Halted in a stage that is not a suite's run (sago's embeddings): its runs are what there is to show.
    if (outcome === undefined) return endOfRun(stopped, ran, config.cache, pool.budget);
    const text = await protocol.summary(outcome, plan, config.format);
    if (text !== undefined) emit(text, config.out);
    return endOfRun(outcome, ran, config.cache, pool.budget);
  });
  // A complete run ends with what reads it; an incomplete one with how to go on (endOfRun's line).
  if (!config.dryRun && code === EXIT.ok)
    for (const line of nextSteps(config.store)) process.stderr.write(`${line}\n`);
  return code;
}

/**
 * The commands that read what a run stored, one line each (issue 37 item 7): the report, and the
 * gate (the comparison's own `waver check --compare` closes the summary when there are two models).
 */
export function nextSteps(store: string): string[] {
  const at = ` --store ${shellWord(store)}`;
  return [
    `next: waver report${at}   # the HTML report`,
    `next: waver check${at} --min-coverage 0.9   # a CI gate`,
  ];
}

function shellWord(s: string): string {
  return /^[\w./@=+:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A call the budget refused, or the budget's stop met where a stage looks at its signal, is a stop (E37). */
function unlessHalted(e: unknown): undefined {
  if (e instanceof CallsHalted) return undefined;
  throw e;
}

/**
 * The exit code of a run command, one meaning of complete for all (docs/decisions.md#e8-exit-codes):
 * 130 when stopped, 2 when a model was stopped at a refused key or a spent quota (the user's to
 * fix, docs/decisions.md E35), 5 when its budget stopped it, 3 when any cell of any suite it ran
 * (`outcome.runs`, and `ran`: the roles' too) failed or is pending or the protocol calls its
 * metrics incomplete, else 0. Unless complete, stderr says why, each kind of failure with its count
 * and first message, and how to go on; a budget's stop, in one line with what was spent.
 */
export function endOfRun(
  outcome: Pick<RunOutcome, 'aborted' | 'complete' | 'runs'>,
  ran: readonly RunResult[] = [],
  cache = true,
  budget?: CallBudget,
): number {
  const runs = [...new Map([...ran, ...outcome.runs].map((r) => [r.runId, r])).values()];
  const complete = outcome.complete && runs.every((r) => r.complete);
  // The budget is the command's: reached, it stopped whichever stage met it.
  const spent = budget?.reached ? budget.describe() : undefined;
  const aborted = outcome.aborted || spent !== undefined;
  const lines = formatRunEnd(runs, aborted, cache, spent);
  if (!aborted && !complete && lines.length === 0)
    lines.push(
      'waver: incomplete: some metrics could not be computed for every model (the summary above marks them unavailable)',
    );
  for (const line of [...formatAnswerNotes(runs), ...lines]) process.stderr.write(`${line}\n`);
  // A budget's stop aborts the caller's signal too: it is told apart by what was spent.
  if (spent === undefined && aborted) return EXIT.aborted;
  if (runs.some((r) => r.models.some((m) => m.stopped))) return EXIT.input;
  if (spent !== undefined) return EXIT.budget;
  return complete ? EXIT.ok : EXIT.incomplete;
}

/**
 * The plan, or undefined when a Ctrl-C or the budget stopped the build (a build rejects with its
 * signal's reason, or with the budget's refusal).
 */
export async function buildOrStop<Plan>(
  protocol: Pick<Protocol<Plan>, 'build'>,
  config: WaverConfig,
  opts: Pick<ProtocolOptions, 'onStage' | 'pool'> = {},
): Promise<Plan | undefined> {
  let stopped: AbortSignal | undefined;
  try {
    return await withAbort((signal) => {
      stopped = signal;
      return protocol.build(config, { ...opts, signal });
    });
  } catch (e) {
    if (stopped?.aborted && e === stopped.reason) return undefined;
    return unlessHalted(e);
  }
}
