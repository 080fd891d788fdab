import type { WaverConfig } from '../config/schema.js';
import type { Store } from '../store/store.js';
import { coverageMeasurements } from './coverage.js';
import { MIN_COVERAGE, type ThresholdSpec } from './threshold-spec.js';
import { metricName } from './thresholds.js';
import type { CheckedSuite, CheckProtocol, Measurement, ThresholdDef, ThresholdRule } from './types.js';

/**
 * Evaluates thresholds per model from the protocols' results loaders (the store alone), one row
 * per (model, metric, scope). A metric a model lacks fails as `unavailable` unless allowed: a gate
 * that passes on missing data passes on a broken run (docs/check.md#unavailable).
 */

export interface CheckRow {
  protocol: string;
  model: string;
  identity?: string;
  /** e.g. `Stability SV`, `Collapse Point CL`, `SAA`, `SGS bleu`, `coverage`. */
  metric: string;
  /** The threshold's metric: `min-stability`. */
  rule: string;
  /** The value (`L2` / `never` for a Collapse Point), undefined when unavailable. */
  value: number | string | undefined;
  low?: number;
  high?: number;
  /** What the CI is (e.g. `95% bootstrap over 50 seeds`) or the Collapse Point's bootstrap share. */
  ci?: string;
  n?: number;
  /** What n counts. */
  over?: string;
  threshold: string;
  pass: boolean;
  /** Why it failed: `below threshold`, `unavailable: ...`; or why an unavailable metric passed. */
  reason?: string;
}

export interface CheckOptions {
  config: WaverConfig;
  protocols: readonly CheckProtocol[];
  rules: readonly ThresholdRule[];
  /** The suite chosen per protocol (chooseSuites). */
  suites: Readonly<Record<string, CheckedSuite>>;
  allowUnavailable?: boolean;
}

export interface CheckResult {
  rows: CheckRow[];
  /** The suites read. */
  suites: CheckedSuite[];
  pass: boolean;
}

export function evaluateThresholds(store: Store, opts: CheckOptions): CheckResult {
  const { config, protocols } = opts;
  const allow = opts.allowUnavailable === true;
  const chosen = Object.values(opts.suites);
  const read = new Set<string>();
  const results = new Map<string, unknown>(); // by protocol, loaded once
  const rows: CheckRow[] = [];

  for (const rule of opts.rules) {
    const row = (spec: ThresholdSpec, protocol: string, m: Measurement): CheckRow =>
      toRow(spec, rule, protocol, m, allow);
    if (rule.metric === MIN_COVERAGE.metric) {
      for (const s of chosen) read.add(s.hash);
      for (const { suite, measurement } of coverageMeasurements(store, chosen, rule))
        rows.push(row(MIN_COVERAGE, suite.protocol, measurement));
      continue;
    }
    const { protocol, def } = thresholdOf(protocols, rule.metric);
    const name = protocol.protocol;
    const suite = opts.suites[name];
    const none = { model: '—', scope: rule.scope };
    if (!suite) {
      rows.push(row(def, name, { ...none, unavailable: `no ${name} run in the store` }));
      continue;
    }
    read.add(suite.hash);
    if (!results.has(name)) results.set(name, protocol.load(store, suite.hash, config));
    for (const m of def.evaluate(results.get(name), rule, { store, suite, config }))
      rows.push(row(def, name, m));
  }
  const suites = chosen.filter((s) => read.has(s.hash));
  return { rows, suites, pass: rows.every((r) => r.pass) };
}

/** The protocol and definition of a threshold; the rules come from its specs, so it is there. */
function thresholdOf(
  protocols: readonly CheckProtocol[],
  metric: string,
): { protocol: CheckProtocol; def: ThresholdDef } {
  for (const protocol of protocols) {
    const def = protocol.thresholds.find((t) => t.metric === metric);
    if (def) return { protocol, def };
  }
  throw new Error(`no protocol defines the threshold ${metric}`);
}

function toRow(
  spec: ThresholdSpec,
  rule: ThresholdRule,
  protocol: string,
  m: Measurement,
  allow: boolean,
): CheckRow {
  const { model, identity, scope, value, unavailable, failure, ...shown } = m;
  return {
    protocol,
    model,
    ...(identity !== undefined && { identity }),
    metric: metricName(spec, scope),
    rule: rule.metric,
    value: unavailable === undefined ? value : undefined,
    ...shown,
    threshold: spec.describe(rule.value),
    ...(unavailable !== undefined
      ? { pass: allow, reason: `unavailable: ${unavailable}` }
      : failure !== undefined
        ? { pass: false, reason: failure }
        : { pass: true }),
  };
}
