import type { CommandContext, ProtocolModule } from '../protocols/types.js';
import type { ReportedProtocol } from '../report/report-data.js';

/** What every command is handed by main.ts: the protocols, and the config their sections make. */
export interface CliContext extends CommandContext {
  protocols: readonly ProtocolModule[];
}

/** The protocols with their report sections loaded, for the report and the viewer. */
export async function reportedProtocols(protocols: readonly ProtocolModule[]): Promise<ReportedProtocol[]> {
  return Promise.all(
    protocols.map(async (p) => ({
      name: p.name,
      title: p.title,
      ...(p.suites && { suites: p.suites }),
      section: await p.section(),
    })),
  );
}
