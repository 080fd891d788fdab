import type { DatasetSource } from '../../data/provenance.js';
import { suiteOf } from '../../run/suite.js';
import type { Store } from '../../store/store.js';
import { WAVER_VERSION } from '../../version.js';
import type { SagoEmbedderRecord, SagoModelRecord } from './axes.js';
import { SagoConfig } from './config.js';
import type { ImportChecks } from './import/checks.js';

/**
 * What a sago run used besides the responses suite — models and their capabilities, the embedder,
 * the judge and generator suites, the settings, the variants the filters dropped — kept in the
 * store as a one-test suite `sago/manifest` with a run record, so `loadSagoResults` (and the HTML
 * report) rebuild every number from the store alone.
 */

export const MANIFEST_SUITE = 'sago/manifest';

export interface RejectedVariant {
  dataset: string;
  promptId: string;
  key: string;
  family: string;
  subtype: string;
  strength: number;
  position: string;
  generator: string;
  reason: string;
  meaningCheck?: unknown;
}

/** A dataset of the run: prompts available and sampled, and its record (absent for the built-in set). */
export interface SagoDatasetRecord {
  name: string;
  available: number;
  n: number;
  source?: DatasetSource;
}

export interface SagoManifest {
  version: 1;
  responsesSuite: string;
  generatorSuite?: string;
  judgeSuite?: string;
  judge?: { label: string; identity: string };
  generator?: { label: string; identity: string };
  embedder?: SagoEmbedderRecord;
  models: SagoModelRecord[];
  seed: number;
  minCoverage: number;
  /** The settings the run used, whole (the sago section with every default and switch resolved). */
  settings: SagoConfig;
  datasets: SagoDatasetRecord[];
  rejected: RejectedVariant[];
  /** Where the responses came from when not from a waver run (`waver import sago-runs`). */
  source?: ImportedSource;
}

/** The SAGO authors' run folders a suite was imported from (src/protocols/sago/import/). */
export interface ImportedSource {
  kind: 'sago-runs';
  runs: ImportedRun[];
  /** What the import checked in the recorded values (import/checks.ts), with the first mismatches. */
  checks: ImportChecks;
}

export interface ImportedRun {
  /** The run folder's name (`run_<model>_<dataset>_<style>_<timestamp>`). */
  folder: string;
  model: string;
  dataset: string;
  style: string;
  rows: number;
  /** 21 or 22 (the later files add `delta_entropy`). */
  columns: number;
  /** The folder's metadata.json as recorded (model, dataset, max_tokens, temperature, judge...). */
  metadata: Record<string, unknown>;
}

/**
 * A stored manifest with the settings later versions added filled in as the run had them: a run
 * stored before the reference switches existed used the paper's reading (the schema's defaults)
 * and waver's density mirroring rules; one stored before `activationLayers` existed used the final
 * layer (the schema's default).
 */
export function normalizedManifest(m: SagoManifest): SagoManifest {
  const stored: Partial<SagoConfig> = m.settings;
  const settings = SagoConfig.parse({ ...stored, mirroringRules: stored.mirroringRules ?? 'density' });
  // In the order they were stored, so the report's JSON of a store reads the same.
  return { ...m, settings: { ...stored, ...settings } };
}

/** Stores the manifest and records a run for it (the newest run marks the manifest in force). */
export function saveManifest(store: Store, manifest: SagoManifest): string {
  const suite = suiteOf(MANIFEST_SUITE, [
    {
      id: 'manifest',
      prompt: `sago results of suite ${manifest.responsesSuite}`,
      meta: manifest,
    },
  ]);
  store.suites.save(suite);
  const runId = store.runs.begin({
    suiteHash: suite.hash,
    config: { sago: manifest.settings },
    waverVersion: WAVER_VERSION,
  });
  store.runs.finish(runId, 'complete');
  return suite.hash;
}

/**
 * The newest manifest of a responses suite (or of any sago run when `responsesSuite` is not
 * given); undefined when the store has none.
 */
export function latestManifest(store: Store, responsesSuite?: string): SagoManifest | undefined {
  for (const hash of store.suites.runsNamed(MANIFEST_SUITE)) {
    const meta = store.suites.test(hash, 'manifest')?.meta as SagoManifest | undefined;
    if (meta && (responsesSuite === undefined || meta.responsesSuite === responsesSuite))
      return normalizedManifest(meta);
  }
  return undefined;
}
