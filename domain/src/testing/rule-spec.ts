import { expect } from 'vitest';
import type { Actor } from '../actor';

// Given what is guarded / when an actor asks / then the rule allows or refuses — the decider spec's
// reading, for the access rules that answer yes or no.
export const ruleSpec = <Guarded, Asking extends Actor = Actor>(
  rule: (actor: Asking, guarded: Guarded) => boolean,
) => ({
  given: (guarded: Guarded) => ({
    when: (actor: Asking) => ({
      thenAllows: () => expect(rule(actor, guarded)).toBe(true),
      thenRefuses: () => expect(rule(actor, guarded)).toBe(false),
    }),
  }),
});
