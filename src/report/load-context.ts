/**
 * Context a section module's loader gets: the settings the suite was run with. Apart from
 * report-data.ts so a protocol's `load` (protocols/types.ts) names it without the report.
 */
export interface LoadContext {
  /** The config of the latest run of a suite (secrets were never stored). */
  runConfig(suiteHash: string): Record<string, unknown> | undefined;
  ablations: boolean;
}
