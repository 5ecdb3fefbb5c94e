/** What the command side needs to replay a stream: where a new stream starts and how each event moves it. */
export interface Aggregate<State, Event> {
  readonly initial: State;
  readonly evolve: (state: State, event: Event) => State;
}

/** A stream name `<category>-<id>` and its parser, defined once per aggregate beside its state. */
export interface StreamName {
  readonly category: string;
  (id: string): string;
  /** The id in a stream name of this category; undefined for any other stream. */
  idOf(streamId: string): string | undefined;
}

export const streamName = (category: string): StreamName => {
  const prefix = `${category}-`;
  const name = (id: string): string => `${prefix}${id}`;
  return Object.assign(name, {
    category,
    idOf: (streamId: string) => (streamId.startsWith(prefix) ? streamId.slice(prefix.length) : undefined),
  });
};
