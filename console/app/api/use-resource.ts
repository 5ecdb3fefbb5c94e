import { useLayoutEffect, useState } from 'preact/hooks';

export type Resource<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'loaded'; readonly value: T }
  | { readonly state: 'failed'; readonly error: Error };

/** Loads what a page shows, again whenever `key` changes; a load overtaken by a newer one is aborted
 *  and its answer dropped. */
export const useResource = <T>(key: string, load: (signal: AbortSignal) => Promise<T>): Resource<T> => {
  const [resource, setResource] = useState<Resource<T>>({ state: 'loading' });
  // `key` names everything `load` reads: a new `load` of the same key is the same load. A layout effect,
  // so the requests leave before the first paint rather than a frame after it.
  useLayoutEffect(() => {
    const controller = new AbortController();
    setResource({ state: 'loading' });
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setResource({ state: 'loaded', value });
      },
      (error: Error) => {
        if (!controller.signal.aborted) setResource({ state: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [key]);
  return resource;
};
