import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// Paths of the console, each a page: a route is a pattern (`:name` takes one path segment) and the page
// it shows. Moving between pages changes the address (back and forward work) without reloading.

export const BASE = '/console';

export interface Route {
  readonly pattern: string;
  readonly page: (params: Readonly<Record<string, string>>, query: URLSearchParams) => JSX.Element;
}

export interface Matched {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

const segments = (path: string): string[] => path.split('/').filter((segment) => segment !== '');

export const matchRoute = (routes: readonly Route[], path: string): Matched | undefined => {
  const actual = segments(path);
  for (const route of routes) {
    const expected = segments(route.pattern);
    if (expected.length !== actual.length) continue;
    const params: Record<string, string> = {};
    const matches = expected.every((segment, index) => {
      const value = actual[index]!;
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = decodeURIComponent(value);
        return true;
      }
      return segment === value;
    });
    if (matches) return { route, params };
  }
  return undefined;
};

/** The console address of a page path (`/policies/p-1` → `/console/policies/p-1`). */
export const consolePath = (path: string, query: Record<string, string | number | undefined> = {}): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return `${BASE}${path}${text === '' ? '' : `?${text}`}`;
};

const listeners = new Set<() => void>();

export const navigate = (href: string): void => {
  history.pushState(null, '', href);
  for (const listener of listeners) listener();
};

export interface Place {
  /** The path inside the console, from '/'. */
  readonly path: string;
  readonly query: URLSearchParams;
}

const here = (): Place => ({
  path: location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/',
  query: new URLSearchParams(location.search),
});

export const usePlace = (): Place => {
  const [place, setPlace] = useState(here);
  useEffect(() => {
    const update = () => setPlace(here());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return place;
};

/** A link between console pages: a plain click moves without reloading; modified clicks (new tab) are
 *  the browser's. `current` marks the one of a set that is shown (`aria-current`). */
export const Link = ({
  href,
  class: className,
  current,
  children,
}: {
  href: string;
  class?: string;
  current?: boolean;
  children: ComponentChildren;
}) => (
  <a
    href={href}
    class={className}
    aria-current={current ? 'true' : undefined}
    onClick={(event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(href);
    }}
  >
    {children}
  </a>
);
