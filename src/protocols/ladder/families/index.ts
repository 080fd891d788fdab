/** The seven ladder families, by their code (docs/method.md; the paper's Table 1). */
import type { Family } from '../types.js';
import { contextInterference } from './ci/rules.js';
import { conflictInstructionStress } from './cis/rules.js';
import { contextLoad } from './cl/rules.js';
import { structuralFormat } from './f/rules.js';
import { inputQuality } from './iq/rules.js';
import { knowledgeBoundary } from './kb/rules.js';
import { semanticVariation } from './sv/rules.js';
import type { FamilyModule } from './types.js';

export const FAMILY_MODULES: Record<Family, FamilyModule> = {
  SV: semanticVariation,
  IQ: inputQuality,
  F: structuralFormat,
  CI: contextInterference,
  CL: contextLoad,
  CIS: conflictInstructionStress,
  KB: knowledgeBoundary,
};
