import { describe, expect, it } from 'vitest';
import { scratchDir, testConfig } from '../../test-support/protocols/ladder/fakes.js';
import { withPool } from '../define.js';
import { build } from './protocol.js';

describe('the build settings of a suite waver builds', () => {
  it('are recorded with its admission, each by name, null where unset', async () => {
    const config = testConfig(scratchDir('waver-ladder-build-settings-'), {
      ladder: { seeds: 1, families: ['SV'], levels: [1], attempts: 1 },
    });
    const plan = await withPool(config, {}, (o) => build(config, o));
    expect(plan.admission?.context.settings).toEqual({
      seeds: 1,
      answerType: null,
      fields: null,
      generator: null,
      families: ['SV'],
      levels: [1],
      attempts: 1,
      bands: null,
      strictLoadBands: true,
      genericFallback: false,
      levelBy: 'content',
    });
  });
});
