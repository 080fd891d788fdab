import { ladderSection } from './ladder.js';
import { paraphraseSection } from './paraphrase.js';
import { plainSection } from './plain.js';
import { sagoSection } from './sago.js';
import type { SectionModule } from './types.js';

export type { SectionModule } from './types.js';

/** The protocols a report knows, in report order. A new protocol adds its module here. */
export const SECTION_MODULES: readonly SectionModule[] = [
  ladderSection,
  sagoSection,
  paraphraseSection,
  plainSection,
];
