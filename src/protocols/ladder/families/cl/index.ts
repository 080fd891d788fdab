import type { LadderFamily } from '../contract.js';
import { needsGenerator } from '../rules-common.js';
import { CL_CARD } from './card.js';
import { contextLoadGate, MEANING } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { contextLoadRules } from './rules.js';
import { loadSeverity } from './severity.js';

/** Context Load: the original verbatim in non-essential material, binned by how much longer it is. */
const UNAVAILABLE = needsGenerator(
  'rules cannot pad a short choice or text question with coherent on-topic context',
);

export const contextLoad: LadderFamily = {
  ...CL_CARD,
  severity: loadSeverity,
  rules: contextLoadRules,
  // A choice seed is padded as a whole item, its options last, as a problem's question stays last.
  answerTypes: { choice: UNAVAILABLE, text: UNAVAILABLE },
  familyGate: contextLoadGate,
  instructions: INSTRUCTIONS,
  writes: 'rewrite',
  modelGates: ['nli', 'meaning'],
  meaning: MEANING,
};
