import type { CallClock, CallLimits } from './limits.js';
import type { ProviderMiddleware } from './middleware.js';
import { runPath } from './presets/run.js';
import { servePath } from './presets/serve.js';

export type { CallClock, CallLimits } from './limits.js';

/** The named paths, one file each under `presets/` (docs/decisions.md E45). */
export const CALL_PATHS = { run: runPath, serve: servePath } as const;

export type CallPathName = keyof typeof CALL_PATHS;

/** The middleware of the path `name` (default "run") for one provider instance, built from its limits. */
export function callPath(
  limits: CallLimits,
  clock: CallClock = {},
  name: CallPathName = 'run',
): ProviderMiddleware[] {
  return CALL_PATHS[name](limits, clock);
}
