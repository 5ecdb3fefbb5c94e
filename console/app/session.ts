import { useEffect, useState } from 'preact/hooks';

// The bearer token the console signs every request with. Kept in sessionStorage: it survives a reload
// of the tab, never reaches another tab or a later session, and is never sent anywhere but the API.

const KEY = 'cropcover.console.token';
const listeners = new Set<() => void>();

export interface Session {
  readonly token: string | null;
  /** Why the last token was dropped (the API refused it), shown on the sign-in page. */
  readonly refusal: string | null;
}

let refusal: string | null = null;

const current = (): Session => ({ token: sessionStorage.getItem(KEY), refusal });
const changed = (): void => {
  for (const listener of listeners) listener();
};

export const sessionToken = (): string | null => sessionStorage.getItem(KEY);

export const signIn = (token: string): void => {
  sessionStorage.setItem(KEY, token);
  refusal = null;
  changed();
};

/** Drops the token; `reason` when the API refused it rather than the person signing out. */
export const signOut = (reason: string | null = null): void => {
  sessionStorage.removeItem(KEY);
  refusal = reason;
  changed();
};

export const useSession = (): Session => {
  const [session, setSession] = useState(current);
  useEffect(() => {
    const update = () => setSession(current());
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return session;
};
