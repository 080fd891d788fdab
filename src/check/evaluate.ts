import type { WaverConfig } from '../config/schema.js';
import type { Store } from '../store/store.js';
import { coverageMeasurements } from './coverage.js';
import { plainSuites } from './suites.js';
import { MIN_COVERAGE, type ThresholdSpec } from './threshold-spec.js';
import { metricName } from './thresholds.js';
import type { CheckedSuite, CheckProtocol, Measurement, ThresholdDef, ThresholdRule } from './types.js';

/**
 * Evaluates thresholds per model from the protocols' results loaders (the store alone), one row
 * per (model, metric, scope). A metric a model lacks fails as `unavailable` unless allowed, and so
 * does a rule with nothing to check: a gate that passes on missing data passes on a broken run
 * (docs/check.md#unavailable).
 */

export interface CheckRow {
  /** The suite's protocol (`plain` for a suite of none); `—` when there is no suite at all. */
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
  const plain = opts.rules.some((r) => r.metric === MIN_COVERAGE.metric) ? plainSuites(store, protocols) : [];
  const read = new Set<string>();
  const results = new Map<string, unknown>(); // by protocol, loaded once
  const rows: CheckRow[] = [];

  for (const rule of opts.rules) {
    const row = (spec: ThresholdSpec, protocol: string, m: Measurement): CheckRow =>
      toRow(spec, rule, protocol, m, allow);
    if (rule.metric === MIN_COVERAGE.metric) {
      const covered = [...chosen, ...plain];
      for (const s of covered) read.add(s.hash);
      const found = coverageMeasurements(store, covered, rule).map(({ suite, measurement }) =>
        row(MIN_COVERAGE, suite.protocol, measurement),
      );
      rows.push(
        ...orNothing(found, () =>
          row(MIN_COVERAGE, '—', { model: '—', unavailable: 'no suite with cells in the store' }),
        ),
      );
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
    const found = def
      .evaluate(results.get(name), rule, { store, suite, config })
      .map((m) => row(def, name, m));
    const nothing = `nothing to check in the ${name} suite ${suite.hash.slice(0, 12)}`;
    rows.push(...orNothing(found, () => row(def, name, { ...none, unavailable: nothing })));
  }
  const suites = [...chosen, ...plain].filter((s) => read.has(s.hash));
  return { rows, suites, pass: rows.every((r) => r.pass) };
}

/** The rows a rule found, or one saying it found none: a gate must not pass on nothing checked. */
function orNothing(found: CheckRow[], nothing: () => CheckRow): CheckRow[] {
  return found.length > 0 ? found : [nothing()];
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
