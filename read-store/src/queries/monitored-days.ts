import type { MonitoredPeril } from '@cropcover/domain';

// How policy_monitor_days keeps each peril of a monitored day (migration 0039): a row a policy-day, so
// every byte counts a million policies × a season of days. Each peril is a positional JSON array, not an
// object naming its fields, and its readings digest (`sha256:` and 64 hex digits as the evaluation
// names it) is 32 bytes in `digests`, at the peril's place.

/** [peril, observed value, days with a reading, days in window, breached, amount due, readings from,
 *  readings to] for an evaluated peril; [peril, reason] for a skipped one. */
export type MonitoredPerilColumns =
  | readonly [Peril, number, number | null, number | null, boolean, number | null, string | null, string | null]
  | readonly [Peril, SkipReason];

type Peril = MonitoredPeril['peril'];
type SkipReason = Extract<MonitoredPeril, { skipped_reason: unknown }>['skipped_reason'];

const DIGEST = /^sha256:([0-9a-f]{64})$/;

/** The columns of a day's perils: `perils` as JSON, `digests` as hex (null where a peril has none). */
export const monitoredPerilsToColumns = (
  perils: readonly MonitoredPeril[],
): { perils: MonitoredPerilColumns[]; digests: (string | null)[] } => ({
  perils: perils.map((peril) =>
    'skipped_reason' in peril
      ? [peril.peril, peril.skipped_reason]
      : [
          peril.peril,
          peril.observed_value,
          peril.coverage?.days_with_reading ?? null,
          peril.coverage?.days_in_window ?? null,
          peril.breached,
          peril.amount_due_minor,
          peril.readings_from,
          peril.readings_to,
        ],
  ),
  digests: perils.map((peril) => {
    if ('skipped_reason' in peril || peril.digest === null) return null;
    const hex = DIGEST.exec(peril.digest)?.[1];
    // Kept whole or refused: a digest of another form would not come back as it was.
    if (!hex) throw new Error(`a readings digest the round table cannot keep: ${peril.digest}`);
    return hex;
  }),
});

/** The day's perils as the evaluation decided them, from the row's columns. */
export const monitoredPerilsFromColumns = (
  perils: readonly MonitoredPerilColumns[],
  digests: readonly (Uint8Array | null)[],
): MonitoredPeril[] =>
  perils.map((columns, i) => {
    if (columns.length === 2) return { peril: columns[0], skipped_reason: columns[1] };
    const [peril, observed, daysWithReading, daysInWindow, breached, amountDue, from, to] = columns;
    const digest = digests[i];
    return {
      peril,
      observed_value: observed,
      coverage:
        daysWithReading === null || daysInWindow === null
          ? null
          : { days_with_reading: daysWithReading, days_in_window: daysInWindow },
      breached,
      amount_due_minor: amountDue,
      readings_from: from,
      readings_to: to,
      digest: digest ? `sha256:${Buffer.from(digest).toString('hex')}` : null,
    };
  });
