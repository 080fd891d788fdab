/** What a suite's cells are for: the models under test, or a role (judge, generator) serving them. */
export type SuiteRole = 'system under test' | 'judge' | 'generator' | 'bookkeeping';

/** The suites a protocol's runs write, each with its role, as its module declares them (ProtocolModule.suites). */
export interface ProtocolSuites {
  /** The systems under test's answers: its report section and its `waver check` gates read this one. */
  readonly primary: string;
  /** Its other suites by name, each with the role its calls play: generator, judges, bookkeeping. */
  readonly others: Readonly<Record<string, Exclude<SuiteRole, 'system under test'>>>;
}

/**
 * Each suite's role as the protocols declare it (docs/report.md#roles). A suite none declares (a
 * plain suite, the demo's, one of a protocol the report was not handed) is counted as the
 * systems under test's.
 */
export function suiteRoles(protocols: readonly { suites?: ProtocolSuites }[]): (name: string) => SuiteRole {
  const roles = new Map<string, SuiteRole>();
  for (const { suites } of protocols) {
    if (!suites) continue;
    roles.set(suites.primary, 'system under test');
    for (const [name, role] of Object.entries(suites.others)) roles.set(name, role);
  }
  return (name) => roles.get(name) ?? 'system under test';
}
