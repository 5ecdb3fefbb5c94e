import { describe, expect, it } from 'vitest';
import { storedEventText, UnstorableEventTextError } from './stored-text';

describe('storedEventText', () => {
  it('is the canonical text of a value every reader can store', () => {
    expect(storedEventText({ b: 'x\\u0000', a: 'ü 😀' }, 'Noted')).toBe('{"a":"ü 😀","b":"x\\\\u0000"}');
  });

  it.each([
    ['U+0000 in a value', { note: 'a\u0000b' }],
    ['U+0000 after an escaped backslash', { note: 'a\\\u0000' }],
    ['U+0000 in a key', { 'a\u0000': 1 }],
    ['a lone high surrogate', { note: 'a\ud83d' }],
    ['a lone low surrogate', { note: ['\ude00b'] }],
  ])('refuses %s', (_, value) => {
    expect(() => storedEventText(value, 'Noted')).toThrow(UnstorableEventTextError);
  });
});
