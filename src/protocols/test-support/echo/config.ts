import { z } from 'zod';
import type { WaverConfig } from '../../../config/schema.js';
import { withFlag } from '../../../config/setting-flags.js';

/** The `echo:` section: how many times the one question is asked, as a test. */
export const EchoConfig = z
  .object({
    times: withFlag(z.int().positive().default(2), { flag: '--times <n>', help: 'tests in the suite' }),
  })
  .strict()
  .default({ times: 2 });

/** What the echo protocol rebuilds from a store: each model's done cells. */
export interface EchoResults {
  done: Record<string, number>;
}

/** The `echo:` section of a config, read through its own schema (a protocol outside waver's config types). */
export function echoSettings(config: WaverConfig) {
  return EchoConfig.parse((config as unknown as { echo?: unknown }).echo);
}
