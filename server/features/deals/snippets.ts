import type { SnippetPart } from '../../../contract/discovery';

const startMark = '\u0002';
const stopMark = '\u0003';

/** pg_trgm's trigrams of one word: lowercased, two spaces before and one after. */
function trigrams(word: string): Set<string> {
  const padded = `  ${word.toLowerCase()} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

/** Trigram similarity of two words, as pg_trgm's similarity() counts it. */
export function wordSimilarity(a: string, b: string): number {
  const left = trigrams(a);
  const right = trigrams(b);
  let shared = 0;
  for (const gram of left) if (right.has(gram)) shared++;
  return shared / (left.size + right.size - shared);
}

/** Words at least this close to a keyword are marked in a near match's snippet. */
const nearWordSimilarity = 0.45;

/**
 * A search result's snippet as parts: ts_headline's excerpt with its matches between U+0002 and
 * U+0003 (deal-search.repository `snippets`). A deal found by the similarity fallback has no such
 * marks: its words close to a keyword (`nearWords`) are marked instead.
 */
export function snippetParts(headline: string, nearWords: readonly string[]): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const push = (text: string, match: boolean) => {
    if (!text) return;
    const last = parts.at(-1);
    if (last && last.match === match) last.text += text;
    else parts.push({ text, match });
  };
  if (headline.includes(startMark)) {
    for (const piece of headline.split(startMark)) {
      const stop = piece.indexOf(stopMark);
      if (stop === -1) push(piece, false);
      else {
        push(piece.slice(0, stop), true);
        push(piece.slice(stop + 1), false);
      }
    }
    return parts;
  }
  for (const token of headline.split(/([\p{L}\p{N}]+)/u)) {
    const near =
      /^[\p{L}\p{N}]+$/u.test(token) &&
      nearWords.some((word) => wordSimilarity(word, token) >= nearWordSimilarity);
    push(token, near);
  }
  return parts;
}
