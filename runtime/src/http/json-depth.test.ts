import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-depth';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
};

describe('nestsDeeperThan', () => {
  it('counts each array and object as a level, scalars as none', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
  });

  it('finds the deep branch among shallow ones', () => {
    expect(nestsDeeperThan({ a: 1, b: [2, 3], c: { d: nested(5) } }, 6)).toBe(true);
    expect(nestsDeeperThan({ a: 1, b: [2, 3], c: { d: nested(5) } }, 7)).toBe(false);
  });

  it('answers for nesting far beyond any call stack', () => {
    expect(nestsDeeperThan(nested(200_000), 32)).toBe(true);
  });
});
