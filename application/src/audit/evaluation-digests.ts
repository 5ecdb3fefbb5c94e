import { type ReadingsProvenance, TriggerEvaluated } from '@cropcover/contracts';
import { type IndexObservation, originDigest, readingsDigest } from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import { loadDataSourceSeries } from './data-source-series';

/** One recorded evaluation's digests against the readings table (SPEC §7 Provenance): `digest`, and
 *  `origin_digest` (each value's label and file, INDEX-DATA §4) when the evaluation recorded one. */
export interface DigestCheck {
  readonly revision: number;
  readonly evaluationId: string;
  readonly peril: string;
  readonly provenance: ReadingsProvenance;
  /** The same digests from today's readings: false once a reading it used was revised or added. */
  readonly matchesCurrent: boolean;
  /** The same digests from the readings as they stood when it was evaluated (the revisions kept). */
  readonly matchesAsEvaluated: boolean;
}

/** Whether the readings give the digests the provenance recorded; one recorded before `origin_digest`
 *  was is checked on `digest` alone. */
const reproduces = (readings: readonly IndexObservation[], provenance: ReadingsProvenance): boolean =>
  readingsDigest(readings) === provenance.digest &&
  (provenance.origin_digest === undefined || originDigest(readings) === provenance.origin_digest);

/** Recomputes the digests of every evaluation in the stream that recorded them. */
export const checkEvaluationDigests = async (
  db: Kysely<ReadModels>,
  events: readonly RecordedEvent[],
): Promise<DigestCheck[]> => {
  const checks: DigestCheck[] = [];
  for (const event of events) {
    if (event.type !== 'TriggerEvaluated') continue;
    const evaluated = TriggerEvaluated.parse(event.data);
    const { provenance } = evaluated;
    if (provenance === undefined) continue;
    // A bilinear point or a unit mean has no series of its own: its cells are combined as it was evaluated.
    const range = { from: provenance.readings_from, to: provenance.readings_to };
    const [now, then] = await Promise.all([
      loadDataSourceSeries(db, provenance, range),
      loadDataSourceSeries(db, provenance, { ...range, asOf: new Date(evaluated.evaluated_at) }),
    ]);
    checks.push({
      revision: event.revision,
      evaluationId: evaluated.evaluation_id,
      peril: evaluated.peril,
      provenance,
      matchesCurrent: reproduces(now, provenance),
      matchesAsEvaluated: reproduces(then, provenance),
    });
  }
  return checks;
};
