/**
 * Runs a small Python 3 program (stdin: JSON, stdout: JSON) so a test can compare a port with
 * CPython itself on inputs the fixtures do not cover. Tests skip with the reason when python3 is
 * not on the PATH.
 */
import { spawnSync } from 'node:child_process';

const probe = spawnSync('python3', ['-c', 'import sys; print(sys.version_info[:2])'], { encoding: 'utf8' });
export const python3Missing =
  probe.status === 0 ? undefined : 'skipped: python3 is not on the PATH (needed to compare with CPython)';

export function runPython<T>(program: string, input: unknown): T {
  const r = spawnSync('python3', ['-c', program], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
