import type { Command } from 'commander';
import type { CheckProtocol } from '../check/types.js';
import type { ConfigContext } from '../config/load.js';
import type { JudgedItem } from '../judge/types.js';
import type { SectionModule } from '../report/report-data.js';
import type { Store } from '../store/store.js';
import type { Protocol, RunOutcome } from './types.js';

/**
 * What the CLI and the shells add to a protocol (docs/protocols.md#adapters): its commands, its
 * part of the report, of `waver check` and of `waver judge`. Kept apart from the protocol
 * (types.ts) so that the library, which runs protocols, never imports a command nor a terminal:
 * a protocol names its adapters' module (`Protocol.adapters`) and the CLI's entry points load it.
 */
export interface ProtocolAdapters<SectionData = unknown> {
  /** Its part of the report, imported on first use. */
  section(): Promise<SectionModule<SectionData>>;
  /** Its part of `waver check`, imported on first use; none for a protocol with nothing to gate. */
  check?(): Promise<CheckProtocol>;
  /** Its commands by name (`waver ladder`, `waver suite`), each imported when it is the one run. */
  readonly commands: Readonly<Record<string, CommandFactory>>;
  /**
   * What `waver import <kind>` can read into the store for it, by kind (`sago-runs`): each a
   * subcommand of `waver import`, imported when it is the one run (docs/protocols.md#imports).
   */
  readonly imports?: Readonly<Record<string, CommandFactory>>;
  /**
   * What its LLM judges judged, from the store alone (docs/judges.md#what-is-judged): each item with
   * its rubric, strata and every judge's verdict, for `waver judge` to sample, label and compare
   * with people. Imported on first use; none for a protocol without judges.
   */
  judged?(store: Store): Promise<JudgedItem[]>;
}

/** A protocol with its adapters: what the CLI's commands and the shells (report, check, view, judge) are handed. */
export type ProtocolModule<
  Plan = unknown,
  SectionData = unknown,
  Outcome extends RunOutcome = RunOutcome,
> = Protocol<Plan, SectionData, Outcome> & ProtocolAdapters<SectionData>;

/** What a protocol's command is handed: the config as every protocol's section extends it. */
export interface CommandContext {
  config: ConfigContext;
}

/**
 * What a command over every protocol (report, check, view, judge, plan, demo) is handed by the
 * entry point: the registry's protocols with their adapters.
 */
export interface RegistryContext extends CommandContext {
  protocols: readonly ProtocolModule[];
}

export type CommandFactory = (ctx: CommandContext) => Promise<Command>;

/** A command of the protocol, given the protocol with its adapters and the command context. */
export type ProtocolCommand<Plan, SectionData, Outcome extends RunOutcome> = (
  protocol: ProtocolModule<Plan, SectionData, Outcome>,
  ctx: CommandContext,
) => Command;

/** A protocol's adapters as its `adapters.ts` declares them, each part imported on first use. */
export interface AdaptersDefinition<Plan, SectionData, Outcome extends RunOutcome>
  extends Pick<ProtocolAdapters<SectionData>, 'section' | 'check' | 'judged'> {
  commands: Readonly<Record<string, () => Promise<ProtocolCommand<Plan, SectionData, Outcome>>>>;
  /** Its `waver import` kinds, each a command of its own (protocols/<name>/import/). */
  imports?: Readonly<Record<string, () => Promise<ProtocolCommand<Plan, SectionData, Outcome>>>>;
}

const ADAPTERS = Symbol('waver protocol adapters');

/** The adapters of `protocol`, bound to it when loaded: the default export of its `adapters.ts`. */
export interface DefinedAdapters<Plan, SectionData, Outcome extends RunOutcome> {
  readonly [ADAPTERS]: (
    protocol: Protocol<Plan, SectionData, Outcome>,
  ) => ProtocolModule<Plan, SectionData, Outcome>;
}

/** A protocol's adapters (protocols/<name>/adapters.ts), typed by its plan, section data and outcome. */
export function defineAdapters<Plan, SectionData, Outcome extends RunOutcome>(
  definition: AdaptersDefinition<Plan, SectionData, Outcome>,
): DefinedAdapters<Plan, SectionData, Outcome> {
  const { commands, imports, ...parts } = definition;
  return {
    [ADAPTERS]: (protocol) => {
      const bound = (factories: AdaptersDefinition<Plan, SectionData, Outcome>['commands']) =>
        Object.fromEntries(
          Object.entries(factories).map(([name, command]) => [
            name,
            async (ctx: CommandContext) => (await command())(module, ctx),
          ]),
        );
      const module: ProtocolModule<Plan, SectionData, Outcome> = {
        ...protocol,
        ...parts,
        commands: bound(commands),
        ...(imports && { imports: bound(imports) }),
      };
      return module;
    },
  };
}

/**
 * The protocols with their adapters, for the CLI's entry points: each protocol's `adapters()`
 * imported (light: each part loads its code on first use). A protocol without adapters runs in the
 * library only, and is left out.
 */
export async function withAdapters(protocols: readonly Protocol[]): Promise<ProtocolModule[]> {
  const modules = await Promise.all(
    protocols.map(async (protocol) => {
      if (!protocol.adapters) return undefined;
      const adapters = await protocol.adapters();
      if (typeof adapters !== 'object' || adapters === null || !(ADAPTERS in adapters))
        throw new Error(`protocol '${protocol.name}': adapters() gave no defineAdapters(...) value`);
      return (adapters as DefinedAdapters<unknown, unknown, RunOutcome>)[ADAPTERS](protocol);
    }),
  );
  return modules.filter((m): m is ProtocolModule => m !== undefined);
}
