import type { Programme } from '@cropcover/contracts';
import { type ActorInRoles, canSeeProgramme, toMajorUnits } from '@cropcover/domain';
import { loadProgramme, type ProgrammeRecord, type ReadModels } from '@cropcover/read-store';
import { ProblemError } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

/** The insurer runs programmes; a reinsurer reads those its treaties cover (SPEC §4). */
export const PROGRAMME_READERS = ['insurer', 'reinsurer'] as const;

/** The programme's record when the actor may see it; 404 `programme_not_found` otherwise, never 403. */
export const readVisibleProgramme = async (
  db: Kysely<ReadModels>,
  programmeId: string,
  actor: ActorInRoles,
): Promise<ProgrammeRecord> => {
  const record = await loadProgramme(db, programmeId);
  if (record === undefined || !canSeeProgramme(actor, record)) {
    throw new ProblemError({
      status: 404,
      code: 'programme_not_found',
      title: 'Not Found',
      detail: `No programme ${programmeId} is visible to you.`,
    });
  }
  return record;
};

export const programmeOf = (record: ProgrammeRecord): Programme => {
  const money = (minor: number) => toMajorUnits(minor, record.currency);
  return {
    programme_id: record.programme_id,
    organization_id: record.organization_id,
    name: record.name,
    currency: record.currency,
    is_default: record.is_default,
    aggregate_limit: record.aggregate_limit_minor === null ? null : money(record.aggregate_limit_minor),
    capacity: {
      zone_default: record.zone_default_minor === null ? null : money(record.zone_default_minor),
      zones: record.zones.map(({ capacity_minor, ...zone }) => ({ ...zone, capacity: money(capacity_minor) })),
      zone_perils: record.zone_perils.map(({ capacity_minor, peril, ...zone }) => ({
        ...zone,
        peril: peril as Programme['capacity']['zone_perils'][number]['peril'],
        capacity: money(capacity_minor),
      })),
    },
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
};
