// Canonical JSON: its text is what content hashes and revision ids are made of, so it must not change.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/kernel/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys by code unit at every depth and leaves out undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'x' }], c: undefined }, é: true, Z: 0 })).toBe(
      '{"Z":0,"a":{"d":[3,{"y":"x","z":null}]},"b":1,"é":true}',
    );
  });

  it('writes scalars, empty containers and odd members as it always has', () => {
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    // An undefined array element is written as nothing; a Date has no own keys.
    expect(canonicalJson([1, undefined, 2])).toBe('[1,,2]');
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":{}}');
    expect(canonicalJson({ '': 1, ' ': 2 })).toBe('{"":1," ":2}');
  });
});
