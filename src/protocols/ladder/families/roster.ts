/**
 * The ladder's families as what reads a stored suite knows them (docs/decisions.md E46): each one's
 * card (code, name, what it keeps), the paper's seven first, then any registered beside them. Light,
 * so the config schema, a stored test's schema, `waver check`, the metrics and the report read a
 * family here without loading the families' modules (registry.ts, which adds a registered
 * family's card here as it adds the module).
 */
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import { type Family, KB_LEVEL, KB_TYPES, type KbType, type LadderTest } from '../types.js';
import { CI_CARD } from './ci/card.js';
import { CIS_CARD } from './cis/card.js';
import { CL_CARD } from './cl/card.js';
import type { FamilyCard } from './contract.js';
import { F_CARD } from './f/card.js';
import { IQ_CARD } from './iq/card.js';
import { KB_CARD } from './kb/card.js';
import { SV_CARD } from './sv/card.js';

/** The paper's order (Table 1), which suites, tables and the metrics keep. */
const BUILT_IN: readonly FamilyCard[] = [SV_CARD, IQ_CARD, F_CARD, CI_CARD, CL_CARD, CIS_CARD, KB_CARD];

const cards = new Map<Family, FamilyCard>(BUILT_IN.map((c) => [c.code, c]));

/** The paper's seven, in its order: what a suite holds when no family is registered. */
export function builtInFamilyCodes(): Family[] {
  return BUILT_IN.map((c) => c.code);
}

/** Every family's code, the built-in ones first, then the registered ones in the order they came. */
export function familyCodes(): Family[] {
  return [...cards.keys()];
}

export function isFamilyCode(code: string): boolean {
  return cards.has(code);
}

/** The card of a code; an unknown code is bad input naming `field`. */
export function familyCard(code: Family, field = 'family'): FamilyCard {
  const card = cards.get(code);
  if (!card) throw new InputError(unknownFamily(code), { field });
  return card;
}

/** `Semantic Variation`: a family's name in tables and reports. */
export function familyName(code: Family): string {
  return familyCard(code).name;
}

/**
 * A test of a family that keeps no answer (Knowledge Boundary's): asked in the boundary prompt,
 * scored by the refusal judge, tabled by boundary type. The baseline keeps its answer.
 */
export function keepsNoAnswer(family: Family | 'baseline'): boolean {
  return family !== 'baseline' && cards.get(family)?.preserves.answer === false;
}

/**
 * The boundary type of a test of a family that keeps no answer: its subtype when that names one,
 * else the type its level stands for (Knowledge Boundary is categorical: the boundary type is the level).
 */
export function kbTypeOf(test: Pick<LadderTest, 'family' | 'subtype' | 'measuredLevel'>): KbType | undefined {
  if (!keepsNoAnswer(test.family)) return undefined;
  if (KB_TYPES.includes(test.subtype as KbType)) return test.subtype as KbType;
  return KB_TYPES.find((t) => KB_LEVEL[t] === test.measuredLevel);
}

/** The message for a code no family has, listing those there are. */
export function unknownFamily(code: string): string {
  return `unknown family '${code}' (expected some of ${familyCodes().join(', ')})`;
}

/**
 * A family's code as a setting or a stored test holds it, checked against the roster when it is
 * read, not when the schema is made: a family registered from waver.yaml's `ladder.familyModules`
 * (config/families.ts) is known by then.
 */
export const FamilyCodeSchema = z
  .string()
  .superRefine((code, ctx) => {
    if (!cards.has(code)) ctx.addIssue({ code: 'custom', message: unknownFamily(code) });
  })
  .meta({ description: `a family's code: ${builtInFamilyCodes().join(', ')} or one registered` });

/**
 * Adds a family's card (registerLadderFamily calls it with the module): a code not written in
 * capitals and digits, or one already taken, is refused. Returns the call that removes it.
 */
export function addFamilyCard(card: FamilyCard): () => void {
  if (!/^[A-Z][A-Z0-9]*$/.test(card.code))
    throw new InputError(`a family code is capital letters and digits, got '${card.code}'`, {
      field: 'family',
    });
  if (cards.has(card.code))
    throw new InputError(`family '${card.code}' is already registered`, { field: 'family' });
  cards.set(card.code, card);
  return () => {
    cards.delete(card.code);
  };
}
