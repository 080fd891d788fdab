import type { ProviderDescriptor } from '../descriptor.js';

/** Recorded answers from a JSONL file (`replay:FILE`): nothing to reach, nothing to pay. */
export const replayProvider: ProviderDescriptor = {
  name: 'replay',
  // The whole rest is the file: nothing else to set, and no endpoint split off.
  spec: { fields: {}, fromString: (rest) => ({ model: rest }) },
  async create(spec) {
    const { createReplayProvider } = await import('../replay.js');
    return createReplayProvider({ file: spec.model, label: spec.label });
  },
  local: true,
  localFile: (spec) => spec.model,
};
