import { Command } from 'commander';
import type { RegistryContext } from '../../protocols/adapters.js';

/**
 * `waver import <kind> DIR...`: reads another tool's recorded runs into the store, so the report,
 * the tables and `waver check` compute from them. The kinds are the protocols' (`imports` of each
 * ProtocolModule, docs/protocols.md#imports); a kind's code is loaded only when it is the one run.
 */
export async function importCommand(ctx: RegistryContext): Promise<Command> {
  const kinds = ctx.protocols.flatMap((p) => Object.entries(p.imports ?? {}));
  const names = kinds.map(([k]) => k);
  const twice = names.find((k, i) => names.indexOf(k) !== i);
  if (twice !== undefined) throw new Error(`two protocols offer 'waver import ${twice}'`);
  const cmd = new Command('import').description(
    `read recorded runs of another tool into the store: ${kinds.map(([k]) => k).join(', ')}`,
  );
  const requested = process.argv[2] === 'import' ? process.argv[3] : undefined;
  const wanted = kinds.some(([k]) => k === requested) ? kinds.filter(([k]) => k === requested) : kinds;
  for (const [, factory] of wanted) cmd.addCommand(await factory(ctx));
  return cmd;
}
