import { Command } from 'commander';
import { commandFlags } from '../../../command-kit/options.js';
import { defineAdapters } from '../../../protocols/adapters.js';
import { executeProtocol, runView } from '../../../protocols/execute.js';
import type { RunOutcome } from '../../../protocols/types.js';
import type { SectionModule } from '../../../report/report-data.js';
import type { Suite } from '../../../run/types.js';
import { EchoConfig, type EchoResults } from './config.js';

const ECHO_FLAGS = commandFlags({ section: { key: 'echo', schema: EchoConfig } });

/** Its report section: a line per model of done cells. */
const echoSection: SectionModule<EchoResults> = {
  sectioned: true,
  claims: (suite) => suite.name === 'echo/questions',
  load: (store, suiteHash) => ({
    done: Object.fromEntries(store.coverage.byModel(suiteHash, 1).map((m) => [m.model, m.coverage.done])),
  }),
  cells: () => [],
  inModelOrder: (r, order) => ({
    done: Object.fromEntries(order.sort(Object.entries(r.done), ([label]) => ({ label }))),
  }),
  html: (r) => `<p class="echo">${Object.entries(r.done).length} model(s)</p>`,
  markdown: (r) =>
    Object.entries(r.done)
      .map(([m, n]) => `- ${m}: ${n} done`)
      .join('\n'),
  json: (r) => r,
};

/** `waver echo` and its report section: the adapters the CLI loads beside the protocol. */
export default defineAdapters<Suite, EchoResults, RunOutcome<EchoResults>>({
  section: async () => echoSection,
  commands: {
    echo: async () => (echo, ctx) => {
      const cmd = new Command('echo').description('ask one question N times');
      ECHO_FLAGS.addTo(cmd).action(async () => {
        const config = ECHO_FLAGS.config(cmd, ctx.config);
        process.exitCode = await executeProtocol(echo, config, { run: runView({ line: () => undefined }) });
      });
      return cmd;
    },
  },
});
