import type { ReportedProtocol, SectionModule } from './report-data.js';
import type { ProtocolSuites } from './suite-roles.js';

/** What the report needs of a protocol's module: its names, its suites and its section, loaded on first use. */
export interface SectionedProtocol {
  readonly name: string;
  readonly title: string;
  readonly suites?: ProtocolSuites;
  section(): Promise<SectionModule>;
}

/** The protocols with their report sections loaded, for the report and the viewer. */
export async function reportedProtocols(
  protocols: readonly SectionedProtocol[],
): Promise<ReportedProtocol[]> {
  return Promise.all(
    protocols.map(async (p) => ({
      name: p.name,
      title: p.title,
      ...(p.suites && { suites: p.suites }),
      section: await p.section(),
    })),
  );
}
