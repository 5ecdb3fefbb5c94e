import { describe, expect, it } from 'vitest';
import { unstorableTextPaths } from './unstorable-text';

describe('unstorableTextPaths', () => {
  it('finds NUL and unpaired surrogates in values and keys at any depth', () => {
    const input = {
      name: 'Sham\u0000ba',
      fine: 'Shamba 🌽 ñ',
      list: ['ok', 'high \uD800 alone', 'low \uDC00 alone'],
      nested: { ['k\u0000']: 'v', deep: [{ at: '\uDBFF' }] },
    };
    const paths = unstorableTextPaths(input);
    expect(paths).toHaveLength(5);
    expect(paths).toEqual(
      expect.arrayContaining([['name'], ['list', 1], ['list', 2], ['nested', 'k\u0000'], ['nested', 'deep', 0, 'at']]),
    );
  });

  it('passes well-formed text, pairs, numbers and nulls', () => {
    expect(unstorableTextPaths({ a: '\uD83C\uDF3D', b: 1, c: null, d: [true] })).toEqual([]);
    expect(unstorableTextPaths('plain')).toEqual([]);
  });

  it('names a bad string given alone with the empty path', () => {
    expect(unstorableTextPaths('\u0000')).toEqual([[]]);
  });

  it('inspects input nested far beyond any call stack', () => {
    let deep: unknown = '\u0000';
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const [path] = unstorableTextPaths(deep);
    expect(path).toHaveLength(100_000);
  });
});
