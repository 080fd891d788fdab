import { Command } from 'commander';
import { emit } from '../../command-kit/output.js';
import type { RegistryContext } from '../../protocols/adapters.js';

export function schemaCommand(ctx: RegistryContext): Command {
  return new Command('schema')
    .description("print the JSON schema of waver.yaml (for editors: '# yaml-language-server: $schema=...')")
    .option('--out <file>', 'also write it to this file')
    .action((opts: { out?: string }) => {
      emit(`${JSON.stringify(ctx.config.jsonSchema(), null, 2)}\n`, opts.out);
    });
}
