/**
 * The V8 flags the CLI's process runs with. The launcher sets them before it compiles the CLI (a
 * code cache holds the flags it was made under, and V8 refuses one made under others; the caches
 * are per command, as these flags are), and `main.ts` sets them again for a process started
 * without the launcher.
 */
import { setFlagsFromString } from 'node:v8';

/** Per command: `report` runs its seconds of code section by section, mostly once each (E101). */
const COMMAND_FLAGS: Record<string, readonly string[]> = {
  report: ['--interrupt-budget=1048576'],
};

// The heap may grow 30% past what the last full GC kept, not V8's 1.1-4x: a long run's in-flight
// garbage otherwise doubles its RSS (docs/decisions.md#e22-the-cli-keeps-the-heap-close-to-what-is-live).
export function setCliV8Flags(command: string | undefined): void {
  setFlagsFromString('--heap-growing-percent=30');
  const own =
    command !== undefined && Object.hasOwn(COMMAND_FLAGS, command) ? COMMAND_FLAGS[command] : undefined;
  for (const flag of own ?? []) setFlagsFromString(flag);
}
