import { expect } from 'vitest';
import { DomainError } from '../domain-error';

// Given events / when command / then events, as Emmett's DeciderSpecification reads.
export const deciderSpec = <State, Event, Command>(
  initial: State,
  evolve: (state: State, event: Event) => State,
  decide: (command: Command, state: State) => Event[],
) => ({
  given: (events: readonly Event[]) => ({
    when: (command: Command) => {
      const run = () => decide(command, events.reduce(evolve, initial));
      return {
        thenEvents: (expected: readonly Event[]) => expect(run()).toEqual(expected),
        thenRefuses: (reason: DomainError['reason'], code: string) => {
          let refusal: unknown;
          try {
            run();
          } catch (error) {
            refusal = error;
          }
          expect(refusal).toBeInstanceOf(DomainError);
          expect(refusal).toMatchObject({ reason, code });
        },
      };
    },
  }),
});
