import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProviderRegistry, processProviders, withProviders } from '../models/registry.js';
import { scratchDir } from '../test-support/scratch.js';
import { repoRoot } from '../test-support/shared.js';
import { loadConfigFile } from './load.js';
import { loadConfigProviders } from './providers.js';

const dir = scratchDir('waver-config-providers-lib-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const descriptor = resolve(repoRoot, 'src/models/test-support/http-echo-provider.mjs');

describe('loadConfigProviders', () => {
  it("registers waver.yaml's providers in the registry it is handed, for the run that uses it alone", async () => {
    const file = join(dir, 'waver.yaml');
    writeFileSync(
      file,
      `providers:\n  - ${descriptor}\nmodels:\n  - provider: httpecho\n    model: m\n    voice: loud\n`,
    );
    const providers = await loadConfigProviders(file, new ProviderRegistry());
    expect(providers.get('httpecho')?.name).toBe('httpecho');
    expect(processProviders.get('httpecho')).toBeUndefined();
    expect(withProviders(providers, () => loadConfigFile(file)).models).toHaveLength(1);
    expect(() => loadConfigFile(file)).toThrow(/unknown model provider 'httpecho'/);
  });
});
