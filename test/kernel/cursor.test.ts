// Cursors (pages, the change feed, bulk links, MCP continuations): what this server wrote reads back, and
// nothing else does — a changed body, another listing's cursor, or the right tag spelled another way.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/kernel/cursor.js';

const SECRET = 'a-secret-of-the-store';
const read =
  (text: string, listing = 'listing-a') =>
  () =>
    decodeCursor(SECRET, listing, text, 'cursor');
const refusedAs = (why: string) =>
  `parameter "cursor" is not a valid cursor (${why}); start from the first page`;

describe('cursors', () => {
  const cursor = encodeCursor(SECRET, 'listing-a', { d: '2024-01-31', i: 42 });
  const [body, tag] = cursor.split('.') as [string, string];

  it('read back as the position they were written with', () => {
    expect(read(cursor)()).toEqual({ d: '2024-01-31', i: 42 });
  });

  it("another listing's cursor is refused", () => {
    expect(read(cursor, 'listing-b')).toThrow(refusedAs('it belongs to another query'));
  });

  it('a tag spelled any other way than this server writes it is refused', () => {
    // Standard base64's alphabet, where the tag holds a character the two alphabets spell differently.
    const standard = tag.replace(/-/g, '+').replace(/_/g, '/');
    const spellings = [
      `${tag}==`, // padded
      `${tag.slice(0, 5)}!${tag.slice(5)}`, // a character base64url decoding skips
      `${tag.slice(0, 5)} ${tag.slice(5)}`,
      ...(standard === tag ? [] : [standard]),
    ];
    for (const spelled of spellings)
      expect(read(`${body}.${spelled}`), spelled).toThrow(refusedAs('signature mismatch'));
  });

  it('a body changed under the same tag is refused', () => {
    const changed = Buffer.from(JSON.stringify({ l: 'listing-a', p: { d: '2024-01-31', i: 43 } })).toString(
      'base64url',
    );
    expect(read(`${changed}.${tag}`)).toThrow(refusedAs('signature mismatch'));
  });
});
