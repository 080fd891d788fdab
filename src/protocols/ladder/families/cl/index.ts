import type { LadderFamily } from '../contract.js';
import { needsGenerator } from '../rules-common.js';
import { CL_CARD } from './card.js';
import { contextLoadGate, MEANING } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { loadSeverity } from './severity.js';

/**
 * Context Load: the original verbatim in non-essential material, binned by how much longer it is.
 * No rules on any seed type: their padding was generic filler a reviewer rejected (CL 0/6 on
 * GSM-Symbolic, 0/4 on choice and text seeds; docs/decisions.md E62).
 */
const UNAVAILABLE = needsGenerator('rules cannot write coherent on-topic context');

export const contextLoad: LadderFamily = {
  ...CL_CARD,
  severity: loadSeverity,
  rules: UNAVAILABLE,
  answerTypes: { choice: UNAVAILABLE, text: UNAVAILABLE },
  familyGate: contextLoadGate,
  instructions: INSTRUCTIONS,
  writes: 'rewrite',
  modelGates: ['nli', 'meaning'],
  meaning: MEANING,
};
