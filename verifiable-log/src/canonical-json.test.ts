import { describe, expect, it } from 'vitest';
import { canonicalJson, NotCanonicalizableError } from './canonical-json';

describe('RFC 8785 canonical JSON', () => {
  it('sorts keys by UTF-16 code units and writes numbers and strings as RFC 8785 §3.2 does', () => {
    // RFC 8785 §3.2.3's sorting example and §3.2.2.3's number examples.
    const sorting = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalJson(sorting)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    expect(canonicalJson([Number('333333333.33333329'), 1e30, 4.5, 0.002, 1e-27, -0, 9007199254740991])).toBe(
      '[333333333.3333333,1e+30,4.5,0.002,1e-27,0,9007199254740991]',
    );
    expect(canonicalJson({ b: [true, null, 'a\u000f\n"\\/'], a: { d: 1, c: undefined } })).toBe(
      '{"a":{"d":1},"b":[true,null,"a\\u000f\\n\\"\\\\/"]}',
    );
  });

  it('refuses what is not I-JSON', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(NotCanonicalizableError);
    expect(() => canonicalJson([1n])).toThrow(NotCanonicalizableError);
    expect(() => canonicalJson({ a: [1, { b: Number.POSITIVE_INFINITY }] })).toThrow(
      '$.a[1].b: Infinity is not I-JSON',
    );
  });
});
