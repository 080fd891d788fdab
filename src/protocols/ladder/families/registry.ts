/**
 * The ladder's families (docs/architecture.md#adding-a-ladder-family): the paper's seven, built in,
 * and any registered beside them for the process. The suite builder, the fill table, the model
 * generator and the model gates find a family here by its code and read it through its
 * LadderFamily shape; none compares codes.
 */
import { InputError } from '../../../errors.js';
import type { Family } from '../types.js';
import { contextInterference } from './ci/index.js';
import { conflictInstructionStress } from './cis/index.js';
import { contextLoad } from './cl/index.js';
import type { LadderFamily } from './contract.js';
import { structuralFormat } from './f/index.js';
import { inputQuality } from './iq/index.js';
import { knowledgeBoundary } from './kb/index.js';
import { addFamilyCard, unknownFamily } from './roster.js';
import { semanticVariation } from './sv/index.js';

/** The paper's order (Table 1), which suites and tables keep: roster.ts's, card for card. */
const BUILT_IN: readonly LadderFamily[] = [
  semanticVariation,
  inputQuality,
  structuralFormat,
  contextInterference,
  contextLoad,
  conflictInstructionStress,
  knowledgeBoundary,
];

const registered = new Map<Family, LadderFamily>(BUILT_IN.map((f) => [f.code, f]));

/**
 * Adds a family for the process (docs/decisions.md E42, E46): its card to the roster, so that
 * waver.yaml, a flag, a stored suite, the metrics and the report know its code, and its module here,
 * so that `buildLadderSuite` builds it when its code is among the families asked for, after the
 * built-in ones. A code already taken is refused. Returns the call that removes it, so a test
 * leaves the registry as it found it.
 */
export function registerLadderFamily(family: LadderFamily): () => void {
  const removeCard = addFamilyCard(family);
  registered.set(family.code, family);
  return () => {
    registered.delete(family.code);
    removeCard();
  };
}

/** Every family, the built-in ones first, then the registered ones in the order they came. */
export function ladderFamilies(): LadderFamily[] {
  return [...registered.values()];
}

/** The family of a code; an unknown code is bad input. */
export function ladderFamily(code: Family): LadderFamily {
  const family = registered.get(code);
  if (!family) throw new InputError(unknownFamily(code), { field: 'families' });
  return family;
}
