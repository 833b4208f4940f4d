// Words as the listing's `query` matches them, and the awards holding each word of the titles, built with
// the summary columns (columns.ts); query.ts finds a query's awards with them.
import { ownTurn } from '../../kernel/turns.js';

/** The words of a text as they are matched: letters and digits, lower case, accents taken off. */
export function words(text: string): string[] {
  // Accents are marks of their own once decomposed (é is e and an acute); plain ASCII has none to take off.
  const plain = ASCII.test(text) ? text : text.normalize('NFD').replace(/\p{M}/gu, '');
  return plain.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
const ASCII = /^[\x20-\x7e]*$/;

/** The awards of each word of the titles: `items` from `offsets[code]` to `offsets[code + 1]`, ascending. */
export interface TitleWords {
  codes: Map<string, number>;
  offsets: Int32Array;
  items: Int32Array;
}

/** The words of no title. */
export function emptyTitleWords(): TitleWords {
  return { codes: new Map(), offsets: new Int32Array(1), items: new Int32Array(0) };
}

/** Collects the title words of awards given in ascending order, then packs them. */
export class TitleWordsBuilder {
  private readonly codes = new Map<string, number>();
  private readonly lists: number[][] = [];

  add(award: number, title: string): void {
    for (const word of words(title)) {
      let code = this.codes.get(word);
      if (code === undefined) {
        code = this.lists.length;
        this.codes.set(word, code);
        this.lists.push([]);
      }
      const list = this.lists[code]!;
      // A word twice in one title is one posting.
      if (list[list.length - 1] !== award) list.push(award);
    }
  }

  /**
   * Packs the lists into one array. A million titles hold millions of postings: between slices of about
   * `slice` of them the event loop is given a turn, so other requests are answered meanwhile.
   */
  async build(slice = 500_000): Promise<TitleWords> {
    const offsets = new Int32Array(this.lists.length + 1);
    for (let code = 0; code < this.lists.length; code += 1)
      offsets[code + 1] = offsets[code]! + this.lists[code]!.length;
    const items = new Int32Array(offsets[this.lists.length]!);
    let copied = 0;
    for (let code = 0; code < this.lists.length; code += 1) {
      const list = this.lists[code]!;
      items.set(list, offsets[code]);
      // Each list copied is let go, so the collector frees them as the packing goes on.
      this.lists[code] = [];
      copied += list.length;
      if (copied >= slice) {
        copied = 0;
        await ownTurn();
      }
    }
    return { codes: this.codes, offsets, items };
  }
}
