import type { WaverConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { type ModelSpec, specLabel, toModelSpec } from '../models/spec.js';
import { openStore } from '../store/store.js';
import { type ModelEstimate, sumEstimates } from './estimate.js';
import { roleParams } from './plan.js';
import { createProviderPool } from './provider-pool.js';
import { estimateSuite, type RunSuiteOptions, runSuite } from './run-suite.js';
import { suiteOf } from './suite.js';
import type { SuiteTest } from './types.js';

/**
 * Generator and judge calls made the one way waver makes model calls: a suite through `runSuite`,
 * so every call is stored, cached, resumable and counted like the SUT's. The answers are read
 * back from the store, never from memory, so what the suite builder uses is what the store holds.
 */

export type Role = 'generator' | 'judge';

/** A batch of tests sent at one temperature (a suite carries one set of generation params). */
export interface RoleBatch {
  temperature: number;
  maxTokens: number;
  tests: SuiteTest[];
}

export type RoleAnswer = { ok: true; text: string } | { ok: false; error: string };

export interface RoleRunResult {
  /** The role model's identity (provider, model, endpoint; content hash for replay). */
  identity: string;
  /** By test id. Every test of every batch has an answer or an error, never neither. */
  answers: Map<string, RoleAnswer>;
}

/** The role's model spec from the config, or an InputError naming the field. */
export function roleSpec(config: WaverConfig, role: Role) {
  const raw = config[role];
  if (raw === undefined)
    throw new InputError(`no ${role} model: pass --${role} SPEC or set ${role} in waver.yaml`, {
      field: role,
    });
  return toModelSpec(raw, { field: role });
}

/** Runs each batch as a suite named `suiteName` against the role's model and collects the answers. */
export async function runRole(
  config: WaverConfig,
  role: Role,
  suiteName: string,
  batches: readonly RoleBatch[],
  opts: RunSuiteOptions = {},
): Promise<RoleRunResult> {
  const spec = roleSpec(config, role);
  const answers = new Map<string, RoleAnswer>();
  let identity = specLabel(spec);
  // One instance of the role's model for every batch (and one gguf load), unless the caller shares theirs.
  const pool = opts.pool ?? createProviderPool({ env: opts.env, fetch: opts.fetch, defaults: config });
  try {
    for (const batch of batches) await runBatch(batch);
  } finally {
    if (!opts.pool) await pool.closeAll();
  }
  return { identity, answers };

  async function runBatch(batch: RoleBatch): Promise<void> {
    if (batch.tests.length === 0) return;
    const suite = suiteOf(suiteName, batch.tests);
    const result = await runSuite(roleConfig(config, spec, batch), suite, { ...opts, pool });
    const model = result.models[0];
    if (!model) throw new Error(`runSuite returned no model for the ${role}`);
    identity = model.identity;
    const store = openStore(result.store);
    try {
      for (const cell of store.cells.all({ suiteHash: suite.hash, modelIdentity: identity })) {
        if (cell.repeat !== 0) continue;
        if (cell.status === 'done' && cell.response)
          answers.set(cell.testId, { ok: true, text: cell.response.text });
        else
          answers.set(cell.testId, {
            ok: false,
            error: cell.error ? `${cell.error.kind}: ${cell.error.message}` : 'no response stored',
          });
      }
    } finally {
      store.close();
    }
    // A cell left pending (the run was stopped) has no row: it is an error, not a silent gap.
    for (const t of batch.tests)
      if (!answers.has(t.id))
        answers.set(t.id, { ok: false, error: result.summary.aborted ? 'run stopped' : 'no cell stored' });
  }
}

/**
 * The config a role's batch runs with: the role's model alone, each test once, the batch's
 * generation params and none of the SUT's. A role's suite is made from what the stage before it
 * stored, so it runs whole (docs/decisions.md E19).
 */
function roleConfig(config: WaverConfig, spec: ModelSpec, batch: RoleBatch): WaverConfig {
  const { shard: _, ...unsharded } = config;
  return {
    ...unsharded,
    models: [spec],
    repeats: 1,
    params: roleParams(batch.temperature, batch.maxTokens),
  };
}

/**
 * `--dry-run` of runRole: what the batches would cost the role's model, as one row for the stage
 * (its batches added up). `bound`: the batches hold every call the stage may make, of which the
 * run makes those the answers before it call for (docs/decisions.md E39).
 */
export async function estimateRole(
  config: WaverConfig,
  role: Role,
  suiteName: string,
  batches: readonly RoleBatch[],
  opts: RunSuiteOptions,
  bound = false,
): Promise<ModelEstimate[]> {
  const spec = roleSpec(config, role);
  const rows: ModelEstimate[] = [];
  for (const batch of batches) {
    if (batch.tests.length === 0) continue;
    const as = { role, stage: suiteName, bound };
    rows.push(
      ...(await estimateSuite(roleConfig(config, spec, batch), suiteOf(suiteName, batch.tests), opts, as)),
    );
  }
  return sumEstimates(rows);
}
