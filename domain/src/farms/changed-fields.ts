import { isDeepStrictEqual } from 'node:util';

/** The entries of `requested` whose values differ from `current`: an update that changes nothing
 *  records no event. */
export const changedFields = <T extends object>(current: T, requested: Partial<T>): Partial<T> =>
  Object.fromEntries(
    Object.entries(requested).filter(
      ([key, value]) => value !== undefined && !isDeepStrictEqual(current[key as keyof T], value),
    ),
  ) as Partial<T>;
