/**
 * Structural/Format: the same words in the same order, laid out differently. L1 changes whitespace
 * only (extra spaces, line breaks, indentation: no markup, so the Format L1 rule keeps it at L1);
 * L2 adds one markdown device (a heading, bullets, a block quote, bold); L3 breaks the text into
 * nested bullets with hard wraps; L4 wraps it narrowly inside a quote block with dividers; L5 lays
 * it out as a table. Each device has a strength (how many breaks, how narrow, how many columns)
 * chosen by measuring (see aim.ts); when a level's own devices cannot reach its band, the other
 * devices are tried.
 */

import type { PyRandom } from '../../../../util/random.js';
import { hideAbbreviationDots, showAbbreviationDots, splitSentences } from '../../text/tokens.js';
import type { Level } from '../../types.js';
import { type Aimed, aimAtLevel } from '../aim.js';
import type { RulesInput, RulesMade } from '../contract.js';

interface Device {
  name: string;
  /** Number of strengths; strength 0 is the mildest. */
  strengths: number;
  build: (text: string, strength: number) => string | undefined;
}

/** Words of the text with their original trailing punctuation (whitespace-separated). */
function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** Hard-wraps words to lines of at most `width` characters (a word longer than the width gets its own line). */
function wrap(ws: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of ws) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/** Whitespace only: `strength + 1` of the word gaps (chosen by the seeded order) widened or broken. */
function whitespaceDevice(order: readonly number[], kinds: readonly string[]): Device {
  return {
    name: 'whitespace',
    strengths: order.length,
    build: (text, strength) => {
      const ws = words(text);
      const gaps = ws.map(() => ' ');
      for (const [i, g] of order.slice(0, strength + 1).entries()) {
        if (g < gaps.length - 1) gaps[g] = kinds[i % kinds.length] as string;
      }
      return ws.map((w, i) => w + (i < ws.length - 1 ? gaps[i] : '')).join('');
    },
  };
}

// "Mr. Roper" is one sentence's words, never a heading of its own (issue 36 draw).
const sentencesOf = (text: string) => splitSentences(hideAbbreviationDots(text)).map(showAbbreviationDots);

/** L2 devices: one markdown device, with `strength` extra blank lines between sentences. */
function markdownDevices(): Device[] {
  const withBreaks = (lines: string[], strength: number, sep = '\n') =>
    lines.reduce((text, line, i) => {
      if (i === 0) return line;
      // The first `strength` lines end in a break; a space after one would open the next line.
      const gap = i - 1 < strength ? `\n${sep === ' ' ? '' : sep}` : sep;
      return text + gap + line;
    }, '');
  return [
    {
      name: 'heading',
      strengths: 6,
      build: (text, s) => {
        const [first, ...rest] = sentencesOf(text);
        if (!first || rest.length === 0) return undefined;
        return `# ${first}\n\n${withBreaks(rest, s, s > 2 ? '\n' : ' ')}`;
      },
    },
    {
      name: 'bullets',
      strengths: 6,
      build: (text, s) => {
        const ss = sentencesOf(text);
        if (ss.length < 2) return undefined;
        return withBreaks(
          ss.map((x) => `- ${x}`),
          s,
        );
      },
    },
    {
      name: 'quote',
      strengths: 6,
      build: (text, s) =>
        withBreaks(
          sentencesOf(text).map((x) => `> ${x}`),
          s,
          '\n>\n'.slice(0, s > 3 ? 3 : 1),
        ),
    },
    {
      name: 'bold',
      strengths: 8,
      build: (text, s) => {
        const ws = words(text);
        const n = Math.min(ws.length, s + 2);
        return `**${ws.slice(0, n).join(' ')}** ${ws.slice(n).join(' ')}`.trim();
      },
    },
  ];
}

/** L3: nested bullets, each sentence wrapped at a width that narrows with strength. */
function nestedBullets(): Device {
  const widths = [70, 60, 52, 45, 40, 35, 30, 26, 22, 18];
  return {
    name: 'nested-bullets',
    strengths: widths.length,
    build: (text, s) =>
      sentencesOf(text)
        .map((sentence) => {
          const [head, ...more] = wrap(words(sentence), widths[s] as number);
          return [`- ${head}`, ...more.map((l) => `  - ${l}`)].join('\n');
        })
        .join('\n'),
  };
}

/**
 * L4: the text hard-wrapped inside a quote block; stronger: `|` dividers after clauses, then a
 * nested quote (`> >`) on every other line. Narrower widths mean more lines.
 */
function quoteWrap(): Device {
  const widths = [44, 38, 34, 30, 26, 22, 19, 16, 13, 11];
  return {
    name: 'quote-wrap',
    strengths: widths.length * 3,
    build: (text, s) => {
      const width = widths[s % widths.length] as number;
      const stage = Math.floor(s / widths.length);
      const ws = stage >= 1 ? words(text).map((w) => (/[,;.]$/.test(w) ? `${w} |` : w)) : words(text);
      return wrap(ws, width)
        .map((l, i) => (stage >= 2 && i % 2 === 1 ? `> > ${l}` : `> ${l}`))
        .join('\n');
    },
  };
}

/** L5: a markdown table whose cells hold the words in order, fewer words per cell at higher strengths. */
function table(): Device {
  const perCell = [9, 8, 7, 6, 5, 4, 3, 2];
  return {
    name: 'table',
    strengths: perCell.length * 2,
    build: (text, s) => {
      const n = perCell[s % perCell.length] as number;
      const columns = s >= perCell.length ? 4 : 3;
      const ws = words(text);
      const cells: string[] = [];
      for (let i = 0; i < ws.length; i += n) cells.push(ws.slice(i, i + n).join(' '));
      const rows: string[] = [];
      for (let i = 0; i < cells.length; i += columns) {
        const row = cells.slice(i, i + columns);
        while (row.length < columns) row.push('');
        rows.push(`| ${row.join(' | ')} |`);
      }
      const rule = `|${' --- |'.repeat(columns)}`;
      return [rows[0], rule, ...rows.slice(1)].join('\n');
    },
  };
}

function devicesFor(level: Level, text: string, rng: PyRandom): Device[] {
  const gapCount = Math.max(1, words(text).length - 1);
  const order = Array.from({ length: gapCount }, (_, i) => i);
  rng.shuffle(order);
  const gentle = whitespaceDevice(order, ['  ', '\n', ' \n', '\n\n', '   ']);
  const heavy = whitespaceDevice(order, ['\n\n', '\n    ', '\n\n  ', '\n', '\t']);
  const markdown = markdownDevices();
  rng.shuffle(markdown);
  const byLevel: Record<Level, Device[]> = {
    1: [gentle],
    2: [...markdown, heavy],
    3: [nestedBullets(), heavy, ...markdown],
    4: [quoteWrap(), table(), nestedBullets()],
    5: [table(), quoteWrap(), nestedBullets()],
  };
  return byLevel[level];
}

export function structuralFormatRules({ original, level, rng, target }: RulesInput): RulesMade | undefined {
  let fallback: { aimed: Aimed; device: string } | undefined;
  for (const device of devicesFor(level, original, rng)) {
    const aimed = aimAtLevel(target, device.strengths, (s) => {
      const text = device.build(original, s);
      return text === original ? undefined : text;
    });
    if (!aimed) continue;
    if (aimed.severity.level === level) {
      return { text: aimed.text, name: `${device.name}-${aimed.strength}`, subtype: device.name };
    }
    fallback ??= { aimed, device: device.name };
  }
  if (!fallback) return undefined;
  return {
    text: fallback.aimed.text,
    name: `${fallback.device}-${fallback.aimed.strength}`,
    subtype: fallback.device,
  };
}
