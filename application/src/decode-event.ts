import { LogEvent, z } from '@cropcover/contracts';
import type { RecordedEvent } from '@cropcover/eventstore';

/** The event of the recorded type; any event of the log when the type is not known statically. */
export type DecodedEvent<Type extends string> = string extends Type ? LogEvent : Extract<LogEvent, { type: Type }>;

/** An event read back from the log, already upcast to today's shape by the event store, as the contracts
 *  define it. Throws, naming where the event sits, when it is not: a decision, a read model or a message
 *  built on a misread event would be wrong without anyone noticing. */
export const decodeEvent = <Type extends string>(recorded: RecordedEvent<Type>): DecodedEvent<Type> => {
  const decoded = LogEvent.safeParse({ type: recorded.type, data: recorded.data });
  if (!decoded.success) {
    throw new Error(
      `malformed ${recorded.type} at ${recorded.streamId}@${recorded.revision}: ${z.prettifyError(decoded.error)}`,
      { cause: decoded.error },
    );
  }
  // The union is discriminated on `type`: what it accepted has the recorded type.
  return decoded.data as DecodedEvent<Type>;
};

/** A filter for the event types a reader handles, so the others are never decoded. */
export const isOneOf =
  <Type extends string>(types: ReadonlySet<Type>) =>
  (event: RecordedEvent): event is RecordedEvent<Type> =>
    (types as ReadonlySet<string>).has(event.type);
