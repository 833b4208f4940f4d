// What an 8-K's documents say, read from their text: the blocks of an HTML document (paragraphs, table
// rows, headings), a press release's title and first paragraph, an item's sub-heading and first paragraph,
// and the Item headings the document has. Offsets elsewhere count characters of `plainText` (ingest/xbrl).

import { decodeEntities } from '../xbrl/inline.js';

const BLOCK = /<\/?(?:div|p|tr|li|h[1-6]|table|br)\b[^>]*>/gi;

/** The document's blocks of text, in order, each with white space collapsed. */
export function blocks(html: string): string[] {
  return decodeEntities(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(BLOCK, '\n')
      .replace(/<[^>]*>/g, ' '),
  )
    .split('\n')
    .map((b) => b.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

const words = (text: string) => text.split(' ').length;
const NOT_A_TITLE = /@|^(exhibit|document|contacts?|for immediate release)\b|contact$|^\(?\d|^[-–—•]/i;
/** A letterhead's address: a post office box, or a line ending in a US ZIP code (68848 or 68848-1480). */
const ADDRESS = /\bP\.?\s?O\.?\s+Box\b|\b\d{5}(-\d{4})?$/i;
/** A paragraph: a sentence or more that ends as sentences do. */
const paragraph = (b: string) => words(b) >= 15 && /[.”"]$/.test(b);

/**
 * A press release's title: its first block of four or more words that is not a label, contact, date or a line
 * of the letterhead's address.
 */
export function releaseTitle(parts: readonly string[]): string | null {
  return (
    parts.find(
      (b) => words(b) >= 4 && b.length <= 250 && !NOT_A_TITLE.test(b) && !ADDRESS.test(b) && !/[.:]$/.test(b),
    ) ?? null
  );
}

/** The first paragraph after `from`. */
export function firstParagraph(parts: readonly string[], from = 0): string | null {
  return parts.slice(from).find(paragraph)?.slice(0, 4000) ?? null;
}

const ITEM_HEADING = /^Item\s+(\d)\.(\d{2})\b/i;

/** The codes of the Item headings before the signature, in order. */
export function itemHeadings(parts: readonly string[]): string[] {
  const out: string[] = [];
  for (const b of parts) {
    if (/^signatures?\b/i.test(b)) break;
    const m = ITEM_HEADING.exec(b);
    if (m && !out.includes(`${m[1]}.${m[2]}`)) out.push(`${m[1]}.${m[2]}`);
  }
  return out;
}

/** The first item's own sub-heading (a short line before its first paragraph), and that paragraph. */
export function itemLead(parts: readonly string[]): { heading: string | null; summary: string | null } {
  const at = parts.findIndex((b) => ITEM_HEADING.test(b) && !/^Item\s+9\.01/i.test(b));
  if (at < 0) return { heading: null, summary: null };
  const next = parts[at + 1];
  const heading =
    next && !paragraph(next) && !ITEM_HEADING.test(next) && words(next) >= 3 && words(next) <= 25
      ? next
      : null;
  return { heading, summary: firstParagraph(parts, at + 1) };
}
