import type { Command } from 'commander';

/**
 * Which generator builds the suite when `--generate` is not typed: `model` when `--generator SPEC`
 * is, for `waver ladder` and `waver suite build` alike (see suiteGenerator); a generator named only
 * in waver.yaml does not switch it, as it may be there for sago or paraphrase.
 */
export function impliedGenerator(cmd: Command): 'model' | undefined {
  const typed = (name: string) => cmd.getOptionValueSource(name) === 'cli';
  return !typed('generate') && typed('generator') ? 'model' : undefined;
}
