import type { Suite } from '../../../run/types.js';
import { defineProtocol } from '../../define.js';
import type { RunOutcome } from '../../types.js';
import { EchoConfig, type EchoResults } from './config.js';

/**
 * A protocol outside waver's folders, in the shape docs/protocols.md#adding-a-protocol gives: it
 * asks the same question `echo.times` times, and counts each model's answers. Registered by tests
 * with `registerProtocol`, it runs through the library and the CLI's commands like waver's own.
 */
export const echoProtocol = defineProtocol<Suite, EchoResults, RunOutcome<EchoResults>>({
  name: 'echo',
  title: 'Echo: one question asked N times',
  config: { key: 'echo', schema: EchoConfig },
  suites: { primary: 'echo/questions', others: {} },
  code: () => import('./protocol.js'),
  adapters: async () => (await import('./adapters.js')).default,
});
