import { ladderSection } from '../../protocols/ladder/report-section.js';
import { paraphraseSection } from '../../protocols/paraphrase/report-section.js';
import { plainSection } from '../../protocols/plain/report-section.js';
import { sagoSection } from '../../protocols/sago/report-section.js';
import type { SectionModule } from './section.js';

export type { SectionModule } from './section.js';

/** The protocols a report knows, in report order. A new protocol adds its module here. */
export const SECTION_MODULES: readonly SectionModule[] = [
  ladderSection,
  sagoSection,
  paraphraseSection,
  plainSection,
];
