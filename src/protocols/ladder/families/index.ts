/** The seven ladder families, by their code (docs/method.md; the paper's Table 1). */
import type { Family } from '../types.js';
import { contextInterference } from './ci.js';
import { conflictInstructionStress } from './cis.js';
import { contextLoad } from './cl.js';
import { structuralFormat } from './format.js';
import { inputQuality } from './iq.js';
import { knowledgeBoundary } from './kb.js';
import { semanticVariation } from './sv.js';
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
