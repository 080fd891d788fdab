import type { WaverConfig } from '../config/schema.js';
import { type LadderResults, ladderTestOf, loadLadderResults } from '../protocols/ladder/results.js';
import { FAMILIES, type Family } from '../protocols/ladder/types.js';
import { loadParaphraseResults, type ParaphraseResults } from '../protocols/paraphrase/results.js';
import { perPromptInstability, SAGO_AXES, type SagoAxis } from '../protocols/sago/metrics.js';
import { loadSagoResults, type SagoModelResults, type SagoResults } from '../protocols/sago/results.js';
import type { Coverage } from '../run/types.js';
import { clusterBootstrap } from '../stats/bootstrap.js';
import type { Store } from '../store/store.js';
import { deriveSeed } from '../util/random.js';
import type { Protocol, ProtocolSuite } from './suites.js';
import { describeThreshold, type ThresholdMetric, type ThresholdRule } from './thresholds.js';

/**
 * Evaluates thresholds per model from the protocols' results loaders (the store alone), one row
 * per (model, metric, scope). A metric a model lacks fails as `unavailable` unless allowed
 * (docs/check.md#unavailable).
 */

export interface CheckRow {
  protocol: Protocol;
  model: string;
  identity?: string;
  /** e.g. `Stability SV`, `Collapse Point CL`, `SAA`, `SGS bleu`, `coverage`. */
  metric: string;
  rule: ThresholdMetric;
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
  rules: readonly ThresholdRule[];
  suites: Partial<Record<Protocol, ProtocolSuite>>;
  allowUnavailable?: boolean;
}

export interface CheckResult {
  rows: CheckRow[];
  /** The suites read, by protocol. */
  suites: ProtocolSuite[];
  pass: boolean;
}

const PROTOCOL_OF: Record<ThresholdMetric, Protocol | undefined> = {
  'min-stability': 'ladder',
  'no-collapse-at-or-below': 'ladder',
  'min-saa': 'paraphrase',
  'max-sgs': 'sago',
  'min-coverage': undefined,
};

export function evaluateThresholds(store: Store, opts: CheckOptions): CheckResult {
  const { config, rules } = opts;
  const allow = opts.allowUnavailable === true;
  const needed = new Set<Protocol>();
  for (const r of rules) {
    const p = PROTOCOL_OF[r.metric];
    if (p) needed.add(p);
    else for (const q of Object.keys(opts.suites) as Protocol[]) needed.add(q);
  }
  const ladder =
    needed.has('ladder') && opts.suites.ladder ? loadLadder(store, opts.suites.ladder, config) : undefined;
  const paraphrase =
    needed.has('paraphrase') && opts.suites.paraphrase
      ? loadParaphraseResults(store, opts.suites.paraphrase.hash, {
          seed: config.seed,
          minCoverage: config.minCoverage,
          ...(config.paraphrase?.resamples !== undefined && { resamples: config.paraphrase.resamples }),
        })
      : undefined;
  // Ablations are not gated on: skip their cost.
  const sago =
    needed.has('sago') && opts.suites.sago
      ? loadSagoResults(store, opts.suites.sago.hash, { ablations: false })
      : undefined;

  const rows: CheckRow[] = [];
  const unavailable = (row: Omit<CheckRow, 'pass' | 'value' | 'reason'>, why: string): CheckRow => ({
    ...row,
    value: undefined,
    pass: allow,
    reason: `unavailable: ${why}`,
  });

  for (const rule of rules) {
    const threshold = describeThreshold(rule);
    const protocol = PROTOCOL_OF[rule.metric];
    if (protocol && !opts.suites[protocol]) {
      rows.push(
        unavailable(
          { protocol, model: '—', metric: metricName(rule), rule: rule.metric, threshold },
          `no ${protocol} run in the store`,
        ),
      );
      continue;
    }
    if (rule.metric === 'min-stability' || rule.metric === 'no-collapse-at-or-below') {
      const results = ladder as LadderResults;
      const families = rule.scope === '*' ? suiteFamilies(store, results.suite.hash) : [rule.scope as Family];
      for (const m of results.models)
        for (const family of families) {
          const fm = m.metrics.families.find((f) => f.family === family);
          const base = {
            protocol: 'ladder' as const,
            model: m.label,
            identity: m.identity,
            rule: rule.metric,
            threshold,
          };
          if (rule.metric === 'min-stability') {
            const metric = `Stability ${family}`;
            const s = fm?.overall.stability;
            if (!fm || !s || s.value === undefined) {
              rows.push(
                unavailable(
                  { ...base, metric, n: fm?.overall.n ?? 0, over: 'responses' },
                  s?.unavailable ?? `no ${family} tests`,
                ),
              );
              continue;
            }
            rows.push({
              ...base,
              metric,
              value: s.value,
              ...(s.low !== undefined && { low: s.low }),
              ...(s.high !== undefined && { high: s.high }),
              ci: `${pct(results.settings.confidence)} bootstrap over ${fm.overall.seeds} seeds`,
              n: fm.overall.n,
              over: 'responses',
              ...verdict(s.value >= rule.value, 'below threshold'),
            });
          } else {
            const metric = `Collapse Point ${family}`;
            const cp = fm?.collapse;
            if (!fm || !cp || cp.status === 'unavailable') {
              rows.push(
                unavailable(
                  { ...base, metric, n: fm?.overall.n ?? 0, over: 'responses' },
                  cp?.reason ?? `no ${family} tests`,
                ),
              );
              continue;
            }
            const atOrBelow = cp.distribution
              .filter((d) => /^L\d$/.test(d.value) && Number(d.value.slice(1)) <= rule.value)
              .reduce((a, d) => a + d.share, 0);
            const collapsed = cp.status === 'collapsed' && (cp.level as number) <= rule.value;
            rows.push({
              ...base,
              metric,
              value: cp.status === 'collapsed' ? `L${cp.level}` : 'never',
              ci: `collapses at <= L${rule.value} in ${(100 * atOrBelow).toFixed(0)}% of ${cp.resamples} resamples`,
              n: fm.overall.n,
              over: 'responses',
              ...verdict(!collapsed, `collapses at L${cp.level}`),
            });
          }
        }
      continue;
    }
    if (rule.metric === 'min-saa') {
      const results = paraphrase as ParaphraseResults;
      for (const m of results.models) {
        const saa = m.metrics.saa;
        const base = {
          protocol: 'paraphrase' as const,
          model: m.label,
          identity: m.identity,
          metric: 'SAA',
          rule: rule.metric,
          threshold,
        };
        if (saa.value === undefined) {
          rows.push(unavailable({ ...base, n: saa.n, over: saa.over }, saa.unavailable ?? 'no item scored'));
          continue;
        }
        rows.push({
          ...base,
          value: saa.value,
          ...(saa.low !== undefined && { low: saa.low }),
          ...(saa.high !== undefined && { high: saa.high }),
          ci: `${pct(results.settings.confidence)} bootstrap over items`,
          n: saa.n,
          over: saa.over,
          ...verdict(saa.value >= rule.value, 'below threshold'),
        });
      }
      continue;
    }
    if (rule.metric === 'max-sgs') {
      const results = sago as SagoResults;
      const axes =
        rule.scope === '*'
          ? SAGO_AXES.filter((a) => results.models.some((m) => m.table.deltas[a] !== undefined))
          : [rule.scope as SagoAxis];
      for (const m of results.models)
        for (const axis of axes) rows.push(sgsRow(m, axis, rule, threshold, config.seed, allow));
      continue;
    }
    // Coverage: every protocol whose suite is in the store.
    for (const c of coverageOf(store, opts.suites, { ladder, paraphrase, sago }, config)) {
      const share = c.total === 0 ? undefined : c.done / c.total;
      const base = {
        protocol: c.protocol,
        model: c.model,
        identity: c.identity,
        metric: 'coverage',
        rule: rule.metric,
        threshold,
      };
      if (share === undefined) {
        rows.push(unavailable({ ...base, n: 0, over: 'cells' }, 'the suite has no cells to cover'));
        continue;
      }
      rows.push({
        ...base,
        value: share,
        n: c.total,
        over: `cells (${c.done} done, ${c.failed} failed, ${c.total - c.done - c.failed} pending)`,
        ...verdict(share >= rule.value, 'below threshold'),
      });
    }
  }
  const suites = Object.values(opts.suites).filter(
    (s): s is ProtocolSuite => s !== undefined && needed.has(s.protocol),
  );
  return { rows, suites, pass: rows.every((r) => r.pass) };
}

function verdict(pass: boolean, why: string): { pass: boolean; reason?: string } {
  return pass ? { pass } : { pass, reason: why };
}

function metricName(rule: ThresholdRule): string {
  const scope = rule.scope === '*' ? '' : ` ${rule.scope}`;
  switch (rule.metric) {
    case 'min-stability':
      return `Stability${scope}`;
    case 'no-collapse-at-or-below':
      return `Collapse Point${scope}`;
    case 'min-saa':
      return 'SAA';
    case 'max-sgs':
      return `SGS${scope}`;
    case 'min-coverage':
      return 'coverage';
  }
}

function pct(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

function loadLadder(store: Store, suite: ProtocolSuite, config: WaverConfig): LadderResults {
  return loadLadderResults(store, suite.hash, {
    ...(config.ladder && { settings: config.ladder }),
    seed: config.seed,
    minCoverage: config.minCoverage,
  });
}

/** Families with at least one test in the suite, in the paper's order. */
function suiteFamilies(store: Store, hash: string): Family[] {
  const present = new Set((store.getSuite(hash)?.tests ?? []).map((t) => ladderTestOf(t).family));
  return FAMILIES.filter((f) => present.has(f));
}

/**
 * SGS over all prompts (the `total` scope) with a percentile CI from resampling prompts: the SGS is
 * the mean of per-prompt instabilities s(i), so prompts are the units (docs/check.md#sgs-ci).
 */
function sgsRow(
  m: SagoModelResults,
  axis: SagoAxis,
  rule: ThresholdRule,
  threshold: string,
  seed: number,
  allow: boolean,
): CheckRow {
  const base = {
    protocol: 'sago' as const,
    model: m.model.label,
    identity: m.model.identity,
    metric: `SGS ${axis}`,
    rule: rule.metric,
    threshold,
  };
  const unavailable = (why: string, n = 0): CheckRow => ({
    ...base,
    value: undefined,
    n,
    over: 'prompts',
    pass: allow,
    reason: `unavailable: ${why}`,
  });
  const deltas = m.table.deltas[axis];
  const status = m.axes[axis];
  if (!deltas)
    return unavailable(
      status?.available === false ? (status.reason ?? 'axis unavailable') : 'axis not computed',
    );
  const score = m.scores.find((s) => s.scope === 'total')?.axes[axis];
  if (!score || score.sgs === undefined) return unavailable(score?.untested ?? 'no prompt has a value');
  const s = Array.from(perPromptInstability(m.table, axis, deltas)).filter((x) => !Number.isNaN(x));
  const mean = (xs: readonly number[]) =>
    xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length;
  const boot = clusterBootstrap(s, mean, { seed: deriveSeed(seed, 'check-sgs', m.model.identity, axis) });
  return {
    ...base,
    value: score.sgs,
    ...(boot.low !== undefined && { low: boot.low }),
    ...(boot.high !== undefined && { high: boot.high }),
    ci: `95% bootstrap over ${score.n} prompts`,
    n: score.n,
    over: 'prompts',
    ...verdict(score.sgs <= rule.value, 'above threshold'),
  };
}

interface CoverageEntry extends Coverage {
  protocol: Protocol;
  model: string;
  identity: string;
}

function coverageOf(
  store: Store,
  suites: Partial<Record<Protocol, ProtocolSuite>>,
  loaded: { ladder?: LadderResults; paraphrase?: ParaphraseResults; sago?: SagoResults },
  config: WaverConfig,
): CoverageEntry[] {
  const out: CoverageEntry[] = [];
  if (suites.ladder) {
    const r = loaded.ladder ?? loadLadder(store, suites.ladder, config);
    for (const m of r.models)
      out.push({ protocol: 'ladder', model: m.label, identity: m.identity, ...m.coverage });
  }
  if (suites.paraphrase) {
    const r =
      loaded.paraphrase ??
      loadParaphraseResults(store, suites.paraphrase.hash, {
        seed: config.seed,
        minCoverage: config.minCoverage,
        resamples: 1,
      });
    for (const m of r.models) {
      const c = m.metrics.coverage;
      out.push({
        protocol: 'paraphrase',
        model: m.label,
        identity: m.identity,
        total: c.expected,
        done: c.done,
        failed: c.failed,
        pending: c.pending,
        cached: 0,
        errorsByKind: c.errorsByKind,
      });
    }
  }
  if (suites.sago) {
    const r = loaded.sago ?? loadSagoResults(store, suites.sago.hash, { ablations: false });
    for (const m of r.models)
      out.push({ protocol: 'sago', model: m.model.label, identity: m.model.identity, ...m.coverage });
  }
  return out;
}
