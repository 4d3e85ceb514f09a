import type { SnippetPart } from '../../../contract/discovery';

const startMark = '\u0002';
const stopMark = '\u0003';

/**
 * A search result's snippet as parts: ts_headline's excerpt with its matches between U+0002 and U+0003
 * (deal-search.repository `snippets`).
 */
export function snippetParts(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const push = (text: string, match: boolean) => {
    if (text) parts.push({ text, match });
  };
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
