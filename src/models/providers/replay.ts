import type { ProviderDescriptor } from '../descriptor.js';

/** Recorded answers from a JSONL file: nothing to reach, nothing to pay. */
export const replayProvider: ProviderDescriptor = {
  name: 'replay',
  async create(spec) {
    const { createReplayProvider } = await import('../replay.js');
    return createReplayProvider({ file: spec.model, label: spec.label });
  },
  local: true,
};
