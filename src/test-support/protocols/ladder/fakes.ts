import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WaverConfig, WaverConfigInput } from '../../../config/schema.js';
import { recordingLine } from '../../../models/replay.js';
import type { GenerateRequest, GenerateResult } from '../../../models/types.js';
import { CONFIG } from '../../../protocols/index.js';
import type { Seed } from '../../../protocols/ladder/types.js';

/**
 * Helpers for tests of the model generator, the model gates and the suite builder: a scratch
 * directory, a `replay:` recording that the test fills with the exact requests the code will
 * send (each answer is a recorded response, named as such), and a config pointing at it.
 */

export { scratchDir } from '../../scratch.js';

export class Recording {
  readonly file: string;
  constructor(dir: string, name: string) {
    this.file = join(dir, name);
  }
  /** Records `text` as the answer to `request`. */
  add(request: GenerateRequest, text: string): this {
    const response: GenerateResult = {
      text,
      finishReason: 'stop',
      usage: { inputTokens: 10, outputTokens: 5 },
    };
    appendFileSync(this.file, `${recordingLine(request, response)}\n`);
    return this;
  }
  get spec(): string {
    return `replay:${this.file}`;
  }
}

export function testConfig(dir: string, extra: WaverConfigInput = {}): WaverConfig {
  return CONFIG.schema.parse({ store: join(dir, 'store.db'), maxRetries: 0, ...extra });
}

export const SEED_A: Seed = {
  id: 'seed-a',
  question:
    'Mia buys 3 boxes of pencils. Each box holds 12 pencils. She gives 5 pencils to her brother. How many pencils does Mia have left?',
  gold: 31,
  source: 'test',
};

export const SEED_B: Seed = {
  id: 'seed-b',
  question: 'A farmer has 24 eggs and packs them into cartons of 6. How many cartons does he fill?',
  gold: 4,
  source: 'test',
};
