import { normaliseLookupText } from '../../shared/lookup/lookup-api';
import {
  isNearSpelling,
  trigramsOf,
  WORD_SIMILARITY_THRESHOLD,
  wordSimilarityOfIds,
} from './word-similarity';

/** One school as the search shows it. */
export interface SchoolRow {
  id: string;
  name: string;
  city: string | null;
  state: string | null;
  zip: string | null;
  ceeb: string | null;
}

export interface SchoolIndex {
  readonly size: number;
  /** The same schools in the same order as `searchList`'s SQL for the same text. */
  search(typed: string, maxResults: number): SchoolRow[];
  /** Only the near spellings of the text, best first (what `search` gives when nothing matches). */
  nearSpellings(typed: string, maxResults: number): SchoolRow[];
}

// The same thresholds as the SQL search (list-search.ts), which this index replaces on the hot path.
const ANYWHERE_MIN_LENGTH = 3;
const NEAR_SPELLING_MIN_LENGTH = 4;
const NOT_A_RANK = 9;

/** PostgreSQL's C collation orders by code point; so does comparing strings of the BMP. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** `order by column` puts nulls last. */
const compareNullable = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : compareText(a, b);

/** Positions of `keys` sorted by them, for prefix ranges by binary search. */
function sortedBy(keys: readonly string[]): Int32Array {
  const order = Int32Array.from(keys, (_, i) => i);
  order.sort((a, b) => compareText(keys[a] as string, keys[b] as string));
  return order;
}

/** The first place in `order` whose key is not below `text`. */
function lowerBound(order: Int32Array, keys: readonly string[], text: string): number {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((keys[order[middle] as number] as string) < text) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Collects the k smallest distinct positions offered, in order. */
class Smallest {
  readonly positions: number[] = [];
  constructor(private readonly k: number) {}
  get full(): boolean {
    return this.positions.length >= this.k;
  }
  /** Whether `position` could still enter (cheap test before a costlier one). */
  wants(position: number): boolean {
    return !this.full || position < (this.positions[this.positions.length - 1] as number);
  }
  offer(position: number): void {
    if (!this.wants(position)) return;
    const list = this.positions;
    let at = list.length;
    while (at > 0 && (list[at - 1] as number) > position) at--;
    if (at > 0 && list[at - 1] === position) return;
    list.splice(at, 0, position);
    if (list.length > this.k) list.pop();
  }
}

/**
 * An index of one list, built from its rows, that answers the SQL search's questions from memory:
 * rows are kept in the SQL's final order (length of the name, name, state, city, id), so within a
 * rank the smaller position comes first; names and the words inside them are sorted for prefix
 * ranges; three-letter pieces of name and city narrow "every word somewhere"; pg_trgm's trigrams
 * narrow near spellings before the exact word similarity is computed on the few left.
 */
export function buildSchoolIndex(input: readonly SchoolRow[]): SchoolIndex {
  // Length in characters, as PostgreSQL's length() counts them, worked out once per row.
  const lengths = new Map(input.map((row) => [row, [...row.name].length]));
  const lengthOf = (row: SchoolRow) => lengths.get(row) as number;
  const rows = [...input].sort(
    (a, b) =>
      lengthOf(a) - lengthOf(b) ||
      compareText(a.name, b.name) ||
      compareNullable(a.state, b.state) ||
      compareNullable(a.city, b.city) ||
      compareText(a.id, b.id),
  );
  const count = rows.length;
  const nameLength = Int32Array.from(rows, lengthOf);
  const names = rows.map((row) => row.name.toLowerCase());
  const haystacks = rows.map((row, i) => `${names[i]} ${(row.city ?? '').toLowerCase()}`);
  const byName = sortedBy(names);

  // Every word after the first, with the rest of the name: `name ilike '% text%'` as a prefix.
  const wordStarts: string[] = [];
  const wordRows: number[] = [];
  names.forEach((name, i) => {
    for (let at = name.indexOf(' '); at >= 0; at = name.indexOf(' ', at + 1)) {
      wordStarts.push(name.slice(at + 1));
      wordRows.push(i);
    }
  });
  const byWordStart = sortedBy(wordStarts);

  const codes = rows.map((row) => row.ceeb ?? '');
  const byCode = sortedBy(codes);

  const pieces = postings(haystacks, (haystack) => {
    const found: string[] = [];
    for (let i = 0; i + 3 <= haystack.length; i++) found.push(haystack.slice(i, i + 3));
    return found;
  });
  // pg_trgm's trigrams of each name, numbered once: each name's in order (for word similarity),
  // each name's distinct ones (to count those it shares with the text), and the names holding each.
  const trigramIds = new Map<string, number>();
  const nameTrigrams = rows.map((row) =>
    Int32Array.from(trigramsOf(row.name), (trigram) => {
      let id = trigramIds.get(trigram);
      if (id === undefined) {
        id = trigramIds.size;
        trigramIds.set(trigram, id);
      }
      return id;
    }),
  );
  // Each name's distinct trigrams, one after another in one array: those of row i from
  // distinctStart[i] to distinctStart[i + 1].
  const distinctStart = new Int32Array(count + 1);
  const distinctLists = nameTrigrams.map((ids) => [...new Set(ids)]);
  distinctLists.forEach((ids, i) => {
    distinctStart[i + 1] = (distinctStart[i] as number) + ids.length;
  });
  const distinctTrigrams = Int32Array.from(distinctLists.flat());
  const namesWith: number[][] = Array.from({ length: trigramIds.size }, () => []);
  distinctLists.forEach((ids, i) => {
    for (const id of ids) namesWith[id]?.push(i);
  });
  const trigramPostings = namesWith.map((list) => Int32Array.from(list));
  // Scratch space for one search at a time (a search never awaits).
  const isWanted = new Uint8Array(trigramIds.size);
  const lastPosition = new Int32Array(trigramIds.size).fill(-1);
  const isCandidate = new Uint8Array(count);

  function rankOf(i: number, text: string, lower: string, words: string[], isCode: boolean) {
    const ceeb = rows[i]?.ceeb ?? null;
    const name = names[i] as string;
    const codeMatch = isCode && ceeb?.startsWith(text) === true;
    const nameMatch =
      text.length >= ANYWHERE_MIN_LENGTH
        ? words.every((word) => (haystacks[i] as string).includes(word))
        : name.startsWith(lower) || name.includes(` ${lower}`);
    if (!codeMatch && !nameMatch) return NOT_A_RANK;
    if (isCode && ceeb === text) return 0;
    if (codeMatch || name.startsWith(lower)) return 1;
    if (name.includes(` ${lower}`)) return 2;
    if (words.every((word) => name.includes(word))) return 3;
    return 4;
  }

  /**
   * Names starting with the text, then names with a word starting with it (ranks 1 and 2 of a
   * text that is not a code), each in order: the first `max` of them, or all when fewer.
   */
  function byPrefix(lower: string, max: number): number[] {
    const first = new Smallest(max);
    for (let at = lowerBound(byName, names, lower); at < count; at++) {
      const i = byName[at] as number;
      if (!(names[i] as string).startsWith(lower)) break;
      first.offer(i);
    }
    if (first.full) return first.positions;
    const second = new Smallest(max - first.positions.length);
    for (let at = lowerBound(byWordStart, wordStarts, lower); at < wordStarts.length; at++) {
      const entry = byWordStart[at] as number;
      if (!(wordStarts[entry] as string).startsWith(lower)) break;
      const i = wordRows[entry] as number;
      if (second.wants(i) && !(names[i] as string).startsWith(lower)) second.offer(i);
    }
    return [...first.positions, ...second.positions];
  }

  /** Rows whose pieces include every piece of every word, in order: the rarest piece's rows. */
  function holdingEveryPiece(words: readonly string[]): Int32Array | null {
    let rarest: Int32Array | null = null;
    for (const word of words) {
      for (let i = 0; i + 3 <= word.length; i++) {
        const posting = pieces.get(word.slice(i, i + 3)) ?? new Int32Array(0);
        if (rarest === null || posting.length < rarest.length) rarest = posting;
      }
    }
    return rarest;
  }

  /**
   * A text of three characters or more that is not a code, when fewer than `max` names start
   * with it or hold a word starting with it (`prefixed`, ranks 1 and 2 in order): then names
   * holding every typed word (rank 3), then names and cities holding them together (rank 4), each
   * in order. Rows come in order, so the scan stops once rank 3 has enough.
   */
  function byWords(lower: string, max: number, prefixed: readonly number[]): number[] {
    const words = lower.split(' ');
    const need = max - prefixed.length;
    const taken = new Set(prefixed);
    const inName: number[] = [];
    const withCity: number[] = [];
    const consider = (i: number) => {
      if (taken.has(i)) return;
      if (words.every((word) => (names[i] as string).includes(word))) inName.push(i);
      else if (
        withCity.length < need &&
        words.every((word) => (haystacks[i] as string).includes(word))
      ) {
        withCity.push(i);
      }
    };
    const rows = holdingEveryPiece(words);
    if (rows === null) {
      for (let i = 0; i < count && inName.length < need; i++) consider(i);
    } else {
      for (let at = 0; at < rows.length && inName.length < need; at++) consider(rows[at] as number);
    }
    return [...prefixed, ...inName, ...withCity].slice(0, max);
  }

  /** Every row the SQL's where clause admits, ranked and ordered as it orders them. */
  function everyMatch(text: string, lower: string, max: number): number[] {
    const isCode = /^\d+$/.test(text);
    const words = lower.split(' ');
    const candidates = new Set<number>();
    if (text.length < ANYWHERE_MIN_LENGTH) {
      for (let at = lowerBound(byName, names, lower); at < count; at++) {
        const i = byName[at] as number;
        if (!(names[i] as string).startsWith(lower)) break;
        candidates.add(i);
      }
      for (let at = lowerBound(byWordStart, wordStarts, lower); at < wordStarts.length; at++) {
        const entry = byWordStart[at] as number;
        if (!(wordStarts[entry] as string).startsWith(lower)) break;
        candidates.add(wordRows[entry] as number);
      }
    } else {
      // Every word is in the row, so each of its pieces is: the rarest piece names the few to test.
      const rarest = holdingEveryPiece(words);
      if (rarest === null) for (let i = 0; i < count; i++) candidates.add(i);
      else for (const i of rarest) candidates.add(i);
    }
    if (isCode) {
      for (let at = lowerBound(byCode, codes, text); at < count; at++) {
        const i = byCode[at] as number;
        if (!(codes[i] as string).startsWith(text)) break;
        candidates.add(i);
      }
    }
    const ranked: Array<{ i: number; rank: number }> = [];
    for (const i of candidates) {
      const rank = rankOf(i, text, lower, words, isCode);
      if (rank !== NOT_A_RANK) ranked.push({ i, rank });
    }
    ranked.sort(
      (a, b) =>
        a.rank - b.rank ||
        (isCode ? compareNullable(rows[a.i]?.ceeb ?? null, rows[b.i]?.ceeb ?? null) : 0) ||
        a.i - b.i,
    );
    return ranked.slice(0, max).map((entry) => entry.i);
  }

  /** `text <% name`, best first: word similarity, then the shorter name, name, id. */
  function nearSpellings(text: string, max: number): number[] {
    const wanted = [...new Set(trigramsOf(text))];
    if (wanted.length === 0) return [];
    // Word similarity never exceeds the share of the text's trigrams the name holds, so a name
    // needs at least `needed` of them; then it holds one of any `wanted.length - needed + 1`, and
    // the rarest that many name every candidate. (A trigram no name has has no names.)
    const needed = Math.ceil(WORD_SIMILARITY_THRESHOLD * wanted.length - 1e-6);
    const known = wanted
      .map((trigram) => trigramIds.get(trigram))
      .filter((id): id is number => id !== undefined);
    const rarest = known
      .map((id) => trigramPostings[id] as Int32Array)
      .sort((a, b) => a.length - b.length)
      .slice(0, Math.max(0, wanted.length - needed + 1 - (wanted.length - known.length)));
    const candidates: number[] = [];
    for (const posting of rarest) {
      for (let at = 0; at < posting.length; at++) {
        const i = posting[at] as number;
        if (isCandidate[i] === 0) {
          isCandidate[i] = 1;
          candidates.push(i);
        }
      }
    }
    for (const id of known) isWanted[id] = 1;
    // The names holding enough, by how many they hold, most first.
    const byShared: number[][] = Array.from({ length: wanted.length + 1 }, () => []);
    for (let c = 0; c < candidates.length; c++) {
      const i = candidates[c] as number;
      isCandidate[i] = 0;
      let shared = 0;
      const end = distinctStart[i + 1] as number;
      for (let at = distinctStart[i] as number; at < end; at++) {
        shared += isWanted[distinctTrigrams[at] as number] as number;
      }
      if (shared >= needed) byShared[shared]?.push(i);
    }
    // The exact similarity, until no name left can reach the `max`-th best found: a name holding
    // `shared` of the text's trigrams has at most their share (rounded as pg_trgm rounds).
    const near: Array<{ i: number; similarity: number }> = [];
    const best: number[] = [];
    for (let shared = wanted.length; shared >= needed; shared--) {
      if (best.length >= max && Math.fround(shared / wanted.length) < (best[max - 1] as number)) {
        break;
      }
      for (const i of byShared[shared] as number[]) {
        const similarity = wordSimilarityOfIds(
          nameTrigrams[i] as Int32Array,
          isWanted,
          wanted.length,
          lastPosition,
        );
        if (!isNearSpelling(similarity)) continue;
        near.push({ i, similarity });
        let at = best.length;
        while (at > 0 && (best[at - 1] as number) < similarity) at--;
        if (at < max) {
          best.splice(at, 0, similarity);
          if (best.length > max) best.pop();
        }
      }
    }
    for (const id of known) isWanted[id] = 0;
    near.sort(
      (a, b) =>
        b.similarity - a.similarity ||
        (nameLength[a.i] as number) - (nameLength[b.i] as number) ||
        compareText(rows[a.i]?.name ?? '', rows[b.i]?.name ?? '') ||
        compareText(rows[a.i]?.id ?? '', rows[b.i]?.id ?? ''),
    );
    return near.slice(0, max).map((entry) => entry.i);
  }

  return {
    size: count,
    search(typed, maxResults) {
      const text = normaliseLookupText(typed);
      if (text === '' || maxResults < 1) return [];
      const lower = text.toLowerCase();
      const isCode = /^\d+$/.test(text);
      let found: number[];
      if (isCode) found = everyMatch(text, lower, maxResults);
      else {
        found = byPrefix(lower, maxResults);
        if (found.length < maxResults) {
          found =
            text.length >= ANYWHERE_MIN_LENGTH
              ? byWords(lower, maxResults, found)
              : everyMatch(text, lower, maxResults);
        }
      }
      const positions =
        found.length === 0 && text.length >= NEAR_SPELLING_MIN_LENGTH && !isCode
          ? nearSpellings(text, maxResults)
          : found;
      return positions.map((i) => rows[i] as SchoolRow);
    },
    nearSpellings(typed, maxResults) {
      const text = normaliseLookupText(typed);
      if (text === '' || maxResults < 1) return [];
      return nearSpellings(text, maxResults).map((i) => rows[i] as SchoolRow);
    },
  };
}

/** For each key, the rows (ascending) whose text yields it. */
function postings(
  texts: readonly string[],
  keysOf: (text: string) => Iterable<string>,
): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  texts.forEach((text, i) => {
    for (const key of keysOf(text)) {
      const list = lists.get(key);
      if (list === undefined) lists.set(key, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  const result = new Map<string, Int32Array>();
  for (const [key, list] of lists) result.set(key, Int32Array.from(list));
  return result;
}
