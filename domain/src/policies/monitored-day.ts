import type { DataCoverage, Peril, PolicyEvent, SkipReason } from '@cropcover/contracts';

// The monitor's round table keeps every monitored day, recorded in the log or not (SPEC §7 "What the log
// records"): what each peril observed and from which readings, so a day left out of the log is still
// shown, and the audit can replay it from the readings and their revisions and compare.

/** One peril of one monitored day, as the day's evaluation decided it. */
export type MonitoredPeril =
  | {
      readonly peril: Peril;
      readonly observed_value: number;
      readonly coverage: DataCoverage | null;
      readonly breached: boolean;
      readonly amount_due_minor: number | null;
      /** The readings used, as the evaluation's provenance names them. */
      readonly readings_from: string | null;
      readonly readings_to: string | null;
      readonly digest: string | null;
    }
  | { readonly peril: Peril; readonly skipped_reason: SkipReason };

/** Each peril of a decided evaluation, in peril order. */
export const monitoredPerilsOf = (decided: readonly PolicyEvent[]): MonitoredPeril[] => {
  const perils: MonitoredPeril[] = [];
  for (const event of decided) {
    if (event.type === 'TriggerEvaluated') {
      const { data } = event;
      perils.push({
        peril: data.peril,
        observed_value: data.observed_value,
        coverage: data.coverage ?? null,
        breached: data.breached,
        amount_due_minor: data.amount_due_minor ?? null,
        readings_from: data.provenance?.readings_from ?? null,
        readings_to: data.provenance?.readings_to ?? null,
        digest: data.provenance?.digest ?? null,
      });
    }
    if (event.type === 'TriggerEvaluationSkipped') {
      for (const peril of event.data.perils)
        perils.push({ peril, skipped_reason: event.data.reasons?.[peril] ?? 'no_data' });
    }
  }
  return perils.sort((a, b) => (a.peril < b.peril ? -1 : a.peril > b.peril ? 1 : 0));
};
