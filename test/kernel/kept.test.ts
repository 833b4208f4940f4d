// Values worked out once per owner and key; past the limit an owner's values are worked out anew.
import { describe, expect, it } from 'vitest';
import { keptPerOwner } from '../../src/kernel/kept.js';

describe('values kept per owner', () => {
  it('works a value out once per owner and key, a falsy value included', () => {
    const kept = keptPerOwner<object, number>();
    const a = {};
    const b = {};
    let work = 0;
    const zero = () => {
      work += 1;
      return 0;
    };
    expect([kept(a, 'x', zero), kept(a, 'x', zero), kept(b, 'x', zero), kept(a, 'y', zero)]).toEqual([
      0, 0, 0, 0,
    ]);
    expect(work).toBe(3);
  });

  it('past the limit, an owner starts again', () => {
    const kept = keptPerOwner<object, string>(2);
    const owner = {};
    const seen: string[] = [];
    const value = (key: string) => () => {
      seen.push(key);
      return key;
    };
    for (const key of ['a', 'b', 'c', 'a']) kept(owner, key, value(key));
    // c found two held and cleared them: a is worked out again.
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
    kept(owner, 'c', value('c'));
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });
});
