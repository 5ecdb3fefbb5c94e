import { canonicalJson } from '@cropcover/verifiable-log';

// An event's stored text (RFC 8785), refused when it holds text no reader could store: a projection writes
// an event's strings into PostgreSQL text and jsonb, which cannot hold U+0000, and UTF-8 has no lone
// surrogate. Such an event, once in the append-only log, would stop every projection at it for good;
// HTTP input is refused before (runtime/src/http/unstorable-text.ts), this holds for every other writer.
// In the canonical text both appear only as escapes, `\u0000` and `\ud800`–`\udfff` (JSON.stringify writes
// paired surrogates as they are), and only where the backslash is not itself escaped.
const UNSTORABLE_ESCAPE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/;

export class UnstorableEventTextError extends RangeError {}

/** The RFC 8785 text of an event's data or metadata, as the store keeps and hashes it. */
export const storedEventText = (value: unknown, eventType: string): string => {
  const text = canonicalJson(value);
  if (UNSTORABLE_ESCAPE.test(text))
    throw new UnstorableEventTextError(`${eventType}: holds U+0000 or a lone surrogate, which no read model can store`);
  return text;
};
