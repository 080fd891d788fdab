import type { LadderConfig } from './config.js';

/**
 * The ladder settings a report shows: every one that changes a number (docs/ladder.md#report-settings).
 * Those that act on the figures of a stored suite (how each test is asked, how a reply is read and
 * scored, the statistics) come from the run's config; those that shape the suite waver builds are
 * recorded with the suite's admission when waver built it: a suite read from a file was built
 * elsewhere, and the run's values of them would say nothing about it.
 */
export const SCORING_SETTINGS = [
  'answerFormat',
  'maxTokens',
  'reference',
  'parser',
  'kbPrompt',
  'quadrant',
  'collapse',
  'stability',
  'baselineRepeats',
  'kbScoring',
  'kbRecognizeThreshold',
  'kbJudgeMaxTokens',
  'collapseRatio',
  'stabilityThreshold',
  'resamples',
  'confidence',
] as const satisfies readonly (keyof LadderConfig)[];

export const BUILD_SETTINGS = [
  'seeds',
  'answerType',
  'fields',
  'generator',
  'families',
  'levels',
  'attempts',
  'bands',
  'strictLoadBands',
  'genericFallback',
  'levelBy',
] as const satisfies readonly (keyof LadderConfig)[];

/**
 * Settings that load code rather than change a number, so no report shows them: the family modules
 * registered (a suite's tests record the codes of the families that made them).
 */
export const LOADING_SETTINGS = ['familyModules'] as const satisfies readonly (keyof LadderConfig)[];

type BuildSetting = (typeof BUILD_SETTINGS)[number];
/** The build settings of a suite waver built; null where unset (the documented default). */
export type LadderBuildSettings = { [K in BuildSetting]: NonNullable<LadderConfig[K]> | null };

export function ladderBuildSettings(s: LadderConfig): LadderBuildSettings {
  return Object.fromEntries(BUILD_SETTINGS.map((k) => [k, s[k] ?? null])) as LadderBuildSettings;
}

/** The scoring settings in force, each by name; null where unset (`maxTokens`: each model's caps are under `asked`). */
export function scoringSettingsJson(s: LadderConfig): Record<string, unknown> {
  return Object.fromEntries(SCORING_SETTINGS.map((k) => [k, s[k] ?? null]));
}
