/**
 * An exact port of CPython 3.11's `difflib.SequenceMatcher(None, a, b).ratio()` on code points.
 * Same b2j index (code point -> ascending positions in b), same autojunk rule (when len(b) >= 200,
 * elements occurring more than len(b) // 100 + 1 times are dropped from b2j but still match when a
 * block is extended), same longest-match search with its tie-breaking (earliest i, then earliest j),
 * same recursion on both sides. Only the sum of the matching block sizes is needed for the ratio,
 * so the blocks are neither sorted nor merged (neither changes the sum).
 * See docs/ladder-measure.md#similarity.
 */

export interface SequenceMatcherOptions {
  /** CPython's `autojunk` (default true). */
  autojunk?: boolean;
}

/** `2 * M / (len(a) + len(b))` with M the matched characters; 1 when both are empty (as CPython). */
export function sequenceMatcherRatio(a: string, b: string, opts: SequenceMatcherOptions = {}): number {
  const { aIds, bIds, distinct } = encodePair(a, b);
  const total = aIds.length + bIds.length;
  if (total === 0) return 1;
  return (2 * matchedCount(aIds, bIds, distinct, opts.autojunk ?? true)) / total;
}

/** The number of matched code points (the sum of `get_matching_blocks()` sizes). */
export function sequenceMatcherMatches(a: string, b: string, opts: SequenceMatcherOptions = {}): number {
  const { aIds, bIds, distinct } = encodePair(a, b);
  return matchedCount(aIds, bIds, distinct, opts.autojunk ?? true);
}

// Scratch space reused across calls: the ratio is called thousands of times per suite, and
// allocating per call costs more than the matching itself on short texts. Safe because the
// functions here are synchronous and never call out.
let bmpId = new Int32Array(0x10000);
let bmpStamp = new Uint32Array(0x10000);
let stamp = 0;
let lenA = new Int32Array(0);
let lenB = new Int32Array(0);
let touchedA = new Int32Array(0);
let touchedB = new Int32Array(0);

/**
 * Both texts as dense ids: b's distinct code points numbered 0..K-1 in order of appearance, a's
 * code points mapped to the same ids, or -1 for a code point that b lacks (it can never match).
 */
function encodePair(a: string, b: string): { aIds: Int32Array; bIds: Int32Array; distinct: number } {
  stamp = (stamp + 1) >>> 0;
  if (stamp === 0) {
    // wrapped after 2^32 calls: start the stamps over so no stale entry looks fresh
    bmpStamp = new Uint32Array(0x10000);
    bmpId = new Int32Array(0x10000);
    stamp = 1;
  }
  let astral: Map<number, number> | undefined;
  const bIds = new Int32Array(b.length);
  let nb = 0;
  let distinct = 0;
  for (let i = 0; i < b.length; i++) {
    let cp = b.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < b.length) {
      const lo = b.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
        astral ??= new Map();
        let id = astral.get(cp);
        if (id === undefined) {
          id = distinct++;
          astral.set(cp, id);
        }
        bIds[nb++] = id;
        continue;
      }
    }
    if (bmpStamp[cp] !== stamp) {
      bmpStamp[cp] = stamp;
      bmpId[cp] = distinct++;
    }
    bIds[nb++] = bmpId[cp] as number;
  }
  const aIds = new Int32Array(a.length);
  let na = 0;
  for (let i = 0; i < a.length; i++) {
    let cp = a.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < a.length) {
      const lo = a.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
        aIds[na++] = astral?.get(cp) ?? -1;
        continue;
      }
    }
    aIds[na++] = bmpStamp[cp] === stamp ? (bmpId[cp] as number) : -1;
  }
  return { aIds: aIds.subarray(0, na), bIds: bIds.subarray(0, nb), distinct };
}

function ensureScratch(lb: number): void {
  if (lenA.length >= lb + 1) return;
  const size = Math.max(lb + 1, lenA.length * 2, 256);
  lenA = new Int32Array(size);
  lenB = new Int32Array(size);
  touchedA = new Int32Array(size);
  touchedB = new Int32Array(size);
}

function matchedCount(a: Int32Array, b: Int32Array, distinct: number, autojunk: boolean): number {
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;

  // b2j as one array of positions grouped by id (ascending within each id), with start offsets.
  const start = new Int32Array(distinct + 1);
  for (let j = 0; j < lb; j++) (start[(b[j] as number) + 1] as number)++;
  for (let id = 0; id < distinct; id++) start[id + 1] = (start[id + 1] as number) + (start[id] as number);
  const positions = new Int32Array(lb);
  const fill = start.slice(0, distinct);
  for (let j = 0; j < lb; j++) {
    const id = b[j] as number;
    positions[fill[id] as number] = j;
    fill[id] = (fill[id] as number) + 1;
  }
  // Popular elements leave b2j (so they never seed a match) but still extend one.
  const end = start.slice(1);
  if (autojunk && lb >= 200) {
    const ntest = Math.floor(lb / 100) + 1;
    for (let id = 0; id < distinct; id++) {
      if ((end[id] as number) - (start[id] as number) > ntest) end[id] = start[id] as number;
    }
  }

  ensureScratch(lb);
  let matched = 0;
  // Pending (alo, ahi, blo, bhi) ranges; CPython uses a list as a stack too.
  const queue: number[] = [0, la, 0, lb];
  while (queue.length > 0) {
    const bhi = queue.pop() as number;
    const blo = queue.pop() as number;
    const ahi = queue.pop() as number;
    const alo = queue.pop() as number;
    const found = longestMatch(a, b, positions, start, end, alo, ahi, blo, bhi);
    const k = found.size;
    if (k === 0) continue;
    matched += k;
    const i = found.i;
    const j = found.j;
    if (alo < i && blo < j) queue.push(alo, i, blo, j);
    if (i + k < ahi && j + k < bhi) queue.push(i + k, ahi, j + k, bhi);
  }
  return matched;
}

const found = { i: 0, j: 0, size: 0 };

/**
 * CPython's `find_longest_match`. `j2len` (length of the match ending at a[i-1], b[j]) lives in a
 * typed array indexed by j + 1, and only the entries set for the previous i are cleared, so each
 * step costs what CPython's fresh dict costs: the number of b positions of a[i].
 */
function longestMatch(
  a: Int32Array,
  b: Int32Array,
  positions: Int32Array,
  start: Int32Array,
  end: Int32Array,
  alo: number,
  ahi: number,
  blo: number,
  bhi: number,
): { i: number; j: number; size: number } {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  let prev = lenA;
  let next = lenB;
  let prevTouched = touchedA;
  let nextTouched = touchedB;
  let nPrev = 0;
  for (let i = alo; i < ahi; i++) {
    let nNext = 0;
    const id = a[i] as number;
    if (id >= 0) {
      const e = end[id] as number;
      // First position >= blo (CPython skips those one by one; same result).
      let lo = start[id] as number;
      let hi = e;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((positions[mid] as number) < blo) lo = mid + 1;
        else hi = mid;
      }
      for (let p = lo; p < e; p++) {
        const j = positions[p] as number;
        if (j >= bhi) break;
        const k = (prev[j] as number) + 1;
        next[j + 1] = k;
        nextTouched[nNext++] = j + 1;
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
    }
    for (let t = 0; t < nPrev; t++) prev[prevTouched[t] as number] = 0;
    const swap = prev;
    prev = next;
    next = swap;
    const swapTouched = prevTouched;
    prevTouched = nextTouched;
    nextTouched = swapTouched;
    nPrev = nNext;
  }
  for (let t = 0; t < nPrev; t++) prev[prevTouched[t] as number] = 0;

  // Extend by equal elements on each side (with no isjunk, nothing is junk; popular elements
  // count as equal here, exactly as in CPython).
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--;
    bestj--;
    bestsize++;
  }
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
    bestsize++;
  }
  found.i = besti;
  found.j = bestj;
  found.size = bestsize;
  return found;
}
