/** waver's library API: the same typed config the CLI and waver.yaml use. */
export { loadConfigFile, resolveConfig, validateConfig } from './config/load.js';
export { configJsonSchema, WaverConfig, type WaverConfigInput } from './config/schema.js';
export { InputError } from './errors.js';
export { ProviderError, type ProviderErrorKind } from './models/errors.js';
export { createProvider } from './models/registry.js';
export { type ModelSpec, parseModelSpec, toModelSpec } from './models/spec.js';
export type * from './models/types.js';
export { loadPlainSuite } from './protocols/plain/suite-file.js';
export { exportTranscripts } from './run/export.js';
export { estimateSuite, type RunResult, type RunSuiteOptions, runSuite } from './run/run-suite.js';
export { suiteOf } from './run/suite.js';
export type { Cell, Coverage, Suite, SuiteTest } from './run/types.js';
export { startOpenAIServer } from './server/openai-server.js';
export { openStore, Store } from './store/store.js';
export { WAVER_VERSION } from './version.js';
