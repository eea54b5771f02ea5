// pg_trgm's trigrams and word similarity (contrib/pg_trgm/trgm_op.c, PostgreSQL 15 to 18),
// ported so the in-memory school index ranks near spellings exactly as the SQL search did. No
// maintained npm package reproduces pg_trgm's padding and its greedy extent search, and the
// results must match the database's to the last tie.

/** pg_trgm's default `pg_trgm.word_similarity_threshold`, which `<%` compares with. */
export const WORD_SIMILARITY_THRESHOLD = 0.6;

/** pg_trgm's word characters: letters and digits (iswalnum under a UTF-8 ctype). */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The trigrams of each word in order, duplicates kept: lower case, two spaces before a word and
 * one after ("  a", " ab", "ab "). pg_trgm hashes trigrams holding multi-byte characters, which
 * only matters on a hash collision.
 */
export function trigramsOf(text: string): string[] {
  const trigrams: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const chars = [' ', ' ', ...match[0], ' '];
    for (let i = 0; i + 2 < chars.length; i++) trigrams.push(chars.slice(i, i + 3).join(''));
  }
  return trigrams;
}

const float4 = Math.fround;
const similarityOf = (count: number, ulen1: number, ulen2: number) =>
  float4(count / (ulen1 + ulen2 - count));

/**
 * `word_similarity(query, target)`: the greatest similarity between the query's trigrams and an
 * extent of the target's, found by pg_trgm's own greedy search (not always the true greatest),
 * in single precision as pg_trgm computes it.
 */
export function wordSimilarity(query: string, target: string): number {
  const ids = new Map<string, number>();
  const found: boolean[] = [];
  for (const trigram of trigramsOf(query)) {
    if (!ids.has(trigram)) {
      ids.set(trigram, ids.size);
      found.push(true);
    }
  }
  const ulen1 = ids.size;
  const targetIds = trigramsOf(target).map((trigram) => {
    let id = ids.get(trigram);
    if (id === undefined) {
      id = ids.size;
      ids.set(trigram, id);
      found.push(false);
    }
    return id;
  });
  return iterateWordSimilarity(targetIds, found, ulen1, new Int32Array(found.length).fill(-1));
}

/**
 * `word_similarity` from trigram numbers given beforehand (the school index numbers every
 * trigram of its names once): `targetIds` are the target's trigrams in order, `found[id]` is 1 for
 * the query's, and `ulen1` counts the query's distinct trigrams. `lastPosition` is scratch space
 * indexed like `found`, -1 everywhere, and left so.
 */
export function wordSimilarityOfIds(
  targetIds: ArrayLike<number>,
  found: ArrayLike<number>,
  ulen1: number,
  lastPosition: Int32Array,
): number {
  try {
    return iterateWordSimilarity(targetIds, found, ulen1, lastPosition);
  } finally {
    for (let i = 0; i < targetIds.length; i++) lastPosition[targetIds[i] as number] = -1;
  }
}

/** iterate_word_similarity without the strict and check-only flags. */
function iterateWordSimilarity(
  targetIds: ArrayLike<number>,
  found: ArrayLike<number | boolean>,
  ulen1: number,
  lastPosition: Int32Array,
): number {
  let ulen2 = 0;
  let count = 0;
  let lower = -1;
  let best = 0;
  for (let i = 0; i < targetIds.length; i++) {
    const id = targetIds[i] as number;
    if (lower >= 0 || found[id]) {
      if ((lastPosition[id] as number) < 0) {
        ulen2++;
        if (found[id]) count++;
      }
      lastPosition[id] = i;
    }
    if (!found[id]) continue;
    const upper = i;
    if (lower === -1) {
      lower = i;
      ulen2 = 1;
    }
    let current = similarityOf(count, ulen1, ulen2);
    let tmpCount = count;
    let tmpUlen2 = ulen2;
    const previousLower = lower;
    for (let tmpLower = lower; tmpLower <= upper; tmpLower++) {
      const tmp = similarityOf(tmpCount, ulen1, tmpUlen2);
      if (tmp > current) {
        current = tmp;
        ulen2 = tmpUlen2;
        lower = tmpLower;
        count = tmpCount;
      }
      const tmpId = targetIds[tmpLower] as number;
      if (lastPosition[tmpId] === tmpLower) {
        tmpUlen2--;
        if (found[tmpId]) tmpCount--;
      }
    }
    best = Math.max(best, current);
    for (let tmpLower = previousLower; tmpLower < lower; tmpLower++) {
      const tmpId = targetIds[tmpLower] as number;
      if (lastPosition[tmpId] === tmpLower) lastPosition[tmpId] = -1;
    }
  }
  return best;
}

/** `query <% target` under the default threshold. */
export function isNearSpelling(similarity: number): boolean {
  return similarity >= WORD_SIMILARITY_THRESHOLD;
}
