/**
 * Structural/Format on a problem or question: the same words in the same order, laid out by the
 * level's kind (layouts.ts): L1 line breaks or indentation between whole sentences, no markup; L2
 * one device (a heading, bullets, a quote, the question in bold); L3 a nested list (an outline of
 * the sentences, or each sentence's clauses nested under it); L4 a quote block holding a list; L5
 * a fenced plain-text block wrapped at least twice, clearly heavier than every layout of a lower level
 * (E77; review v8). One is drawn among the layouts that pass the gates and measure at the
 * requested level (choose.ts).
 */

import type { Level } from '../../types.js';
import type { RulesInput, RulesMade } from '../contract.js';
import { chooseLayout, heavierThanAll, noHeavierThan } from './choose.js';
import { fenceWraps, L5_MIN_WRAPS, type Layout, proseLayouts } from './layouts.js';

/** The seed's layouts at every level below `level`. */
export const lowerLayouts = (build: (level: Level) => Layout[], level: Level): Layout[] =>
  ([1, 2, 3, 4] as const).filter((l) => l < level).flatMap(build);

export function structuralFormatRules({ original, level, rng, target }: RulesInput): RulesMade | undefined {
  const layouts = proseLayouts(original, level);
  const kept =
    level === 1
      ? noHeavierThan(layouts, proseLayouts(original, 2), original)
      : level === 5
        ? heavierThanAll(
            layouts.filter((l) => fenceWraps(l.text) >= L5_MIN_WRAPS),
            lowerLayouts((l) => proseLayouts(original, l), 5),
            original,
          )
        : layouts;
  const layout = chooseLayout(kept, target, rng);
  return layout && { text: layout.text, name: layout.subtype, subtype: layout.subtype };
}
