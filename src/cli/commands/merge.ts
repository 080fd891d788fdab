import { Command } from 'commander';
import { mergeStores } from '../../store/merge.js';

/**
 * `waver merge STORE... --out STORE`: the stores of a sharded run (or of any runs) united into one,
 * refusing a cell with two different responses (docs/decisions.md#e20-waver-merge-unites-stores-or-refuses).
 */
export function mergeCommand(): Command {
  return new Command('merge')
    .description(
      'unite stores (e.g. the shards of a run) into one; a cell with two different responses is refused',
    )
    .argument('<stores...>', 'stores to merge, in order')
    .requiredOption('--out <file>', 'the merged store (when it exists, its contents come first)')
    .action((stores: string[], opts: { out: string }) => {
      const outcome = mergeStores(stores, opts.out);
      for (const s of outcome.sources)
        process.stdout.write(
          `${s.path}: ${s.added} cells added, ${s.replaced} replaced (failed in the output, done or failed later in this store), ${s.attempts} attempts` +
            `${s.auxKept ? `, ${s.auxKept} aux results differing (the first kept)` : ''}\n`,
        );
      process.stdout.write(`${opts.out}: ${outcome.cells} cells\n`);
    });
}
