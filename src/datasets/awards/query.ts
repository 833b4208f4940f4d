// The listing's `query`: every word of it must appear in an award's title, recipient or agency. Words are
// found in memory, beside the summary columns (columns.ts), the same way on both engines: a title's words
// as postings of the awards holding them, a recipient's or agency's words as the names holding them (a name
// is shared by many awards, and the columns already code each award's names).
import type { AwardColumns, Dictionary } from './columns.js';
import { words } from './words.js';

/** Each dictionary's words, and the codes of the names holding each, made once per dictionary. */
const nameIndexes = new WeakMap<Dictionary, Map<string, number[]>>();

/** The codes of a dictionary's names holding `word`, as a mask over the codes; null when none does. */
function namesHolding(dict: Dictionary, word: string) {
  let index = nameIndexes.get(dict);
  if (!index) {
    index = new Map();
    dict.names.forEach((name, code) => {
      for (const w of new Set(words(name))) {
        const codes = index?.get(w);
        if (codes) codes.push(code);
        else index?.set(w, [code]);
      }
    });
    nameIndexes.set(dict, index);
  }
  const codes = index.get(word);
  if (!codes) return null;
  const mask = new Uint8Array(dict.names.length);
  for (const code of codes) mask[code] = 1;
  return mask;
}

/** The awards (column positions, ascending) holding every word of `query`; none when it has no words. */
export function awardsMatching(cols: AwardColumns, query: string): Int32Array {
  const terms = [...new Set(words(query))];
  if (terms.length === 0) return new Int32Array(0);
  const { titleWords } = cols;
  const tests = terms.map((word) => {
    const code = titleWords.codes.get(word);
    const postings =
      code === undefined
        ? new Int32Array(0)
        : titleWords.items.subarray(titleWords.offsets[code], titleWords.offsets[code + 1]);
    return {
      postings,
      agencies: namesHolding(cols.dict.agency, word),
      recipients: namesHolding(cols.dict.recipient, word),
    };
  });
  // Candidates: the postings of the rarest word found in titles only; every award when each word is also in
  // some recipient's or agency's name.
  const titlesOnly = tests.filter((t) => !t.agencies && !t.recipients);
  const narrowest = titlesOnly.sort((a, b) => a.postings.length - b.postings.length)[0];
  const checks = tests
    .filter((t) => t !== narrowest)
    .map((t) => {
      const inTitle = new Uint8Array(cols.size);
      for (const award of t.postings) inTitle[award] = 1;
      return { inTitle, agencies: t.agencies, recipients: t.recipients };
    });
  const { agency, recipient } = cols;
  const out = new Int32Array(narrowest ? narrowest.postings.length : cols.size);
  let found = 0;
  const visit = (award: number) => {
    for (const check of checks) {
      if (check.inTitle[award] === 1) continue;
      if (check.agencies && check.agencies[agency[award]!] === 1) continue;
      if (check.recipients && check.recipients[recipient[award]!] === 1) continue;
      return;
    }
    out[found] = award;
    found += 1;
  };
  if (narrowest) for (const award of narrowest.postings) visit(award);
  else for (let award = 0; award < cols.size; award += 1) visit(award);
  return out.subarray(0, found);
}
