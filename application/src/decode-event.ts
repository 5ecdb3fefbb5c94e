import { LogEvent, z } from '@cropcover/contracts';
import type { RecordedEvent } from '@cropcover/eventstore';

/** The event of the recorded type; any event of the log when the type is not known statically. */
export type DecodedEvent<Type extends string> = string extends Type ? LogEvent : Extract<LogEvent, { type: Type }>;

// A frozen term sheet is most of a PolicyIssued, and thousands of policies freeze the same product
// version: each distinct sheet (by its JSON text) is checked against the schema once per process, and a
// later PolicyIssued freezing it is checked without it. The set of sheets checked is bounded.
const MAX_CHECKED_SHEETS = 1_000;
const checkedSheets = new Set<string>();

const frozenSheetText = (type: string, data: unknown): string | undefined =>
  type === 'PolicyIssued' && typeof data === 'object' && data !== null && 'term_sheet' in data
    ? JSON.stringify(data.term_sheet)
    : undefined;

const parseLogEvent = (type: string, data: unknown) => {
  const sheet = frozenSheetText(type, data);
  if (sheet === undefined) return LogEvent.safeParse({ type, data });
  if (checkedSheets.has(sheet)) {
    const { term_sheet, ...rest } = data as { term_sheet: unknown };
    const decoded = LogEvent.safeParse({ type, data: rest });
    return decoded.success
      ? { ...decoded, data: { ...decoded.data, data: { ...decoded.data.data, term_sheet } } }
      : decoded;
  }
  const decoded = LogEvent.safeParse({ type, data });
  if (decoded.success) {
    if (checkedSheets.size >= MAX_CHECKED_SHEETS) checkedSheets.delete(checkedSheets.values().next().value!);
    checkedSheets.add(sheet);
  }
  return decoded;
};

/** An event read back from the log, already upcast to today's shape by the event store, as the contracts
 *  define it. Throws, naming where the event sits, when it is not: a decision, a read model or a message
 *  built on a misread event would be wrong without anyone noticing. */
export const decodeEvent = <Type extends string>(recorded: RecordedEvent<Type>): DecodedEvent<Type> => {
  const decoded = parseLogEvent(recorded.type, recorded.data);
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
