import type { Kysely, Selectable } from 'kysely';
import type { ReadModels } from '../read-models';
import type { ProgrammesTable } from '../schema/projector/programme-tables';

/** A programme as projected, its capacity rules in minor units, and the reinsurers party to its treaties. */
export interface ProgrammeRecord {
  readonly programme_id: string;
  readonly organization_id: string;
  readonly name: string;
  readonly currency: string;
  readonly is_default: boolean;
  readonly aggregate_limit_minor: number | null;
  readonly zone_default_minor: number | null;
  readonly zones: readonly { source_id: string; location: string; capacity_minor: number }[];
  readonly zone_perils: readonly { source_id: string; location: string; peril: string; capacity_minor: number }[];
  readonly reinsurer_organization_ids: readonly string[];
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** Which programmes a list shows: an organization's own, or those a reinsurer has a treaty in. */
export type ProgrammeScope =
  | { readonly organizationId: string; readonly asReinsurer: boolean }
  | { readonly all: true };

const nullableNumber = (value: bigint | null) => (value === null ? null : Number(value));

const recordsOf = async (
  db: Kysely<ReadModels>,
  rows: readonly Selectable<ProgrammesTable>[],
): Promise<ProgrammeRecord[]> => {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.programme_id);
  const [capacities, treaties] = await Promise.all([
    db.selectFrom('programme_capacities').selectAll().where('programme_id', 'in', ids).execute(),
    db
      .selectFrom('treaties')
      .select(['programme_id', 'reinsurer_organization_id'])
      .where('programme_id', 'in', ids)
      .where('reinsurer_organization_id', 'is not', null)
      .execute(),
  ]);
  return rows.map((row) => {
    const own = capacities
      .filter((rule) => rule.programme_id === row.programme_id)
      .sort((a, b) => (a.source_id + a.location + a.peril < b.source_id + b.location + b.peril ? -1 : 1));
    return {
      programme_id: row.programme_id,
      organization_id: row.organization_id,
      name: row.name,
      currency: row.currency,
      is_default: row.is_default,
      aggregate_limit_minor: nullableNumber(row.aggregate_limit_minor),
      zone_default_minor: nullableNumber(row.zone_default_minor),
      zones: own
        .filter((rule) => rule.peril === '')
        .map((rule) => ({
          source_id: rule.source_id,
          location: rule.location,
          capacity_minor: Number(rule.capacity_minor),
        })),
      zone_perils: own
        .filter((rule) => rule.peril !== '')
        .map((rule) => ({
          source_id: rule.source_id,
          location: rule.location,
          peril: rule.peril,
          capacity_minor: Number(rule.capacity_minor),
        })),
      reinsurer_organization_ids: [
        ...new Set(
          treaties
            .filter((treaty) => treaty.programme_id === row.programme_id)
            .map((treaty) => treaty.reinsurer_organization_id!),
        ),
      ],
      created_at: new Date(row.created_at),
      updated_at: new Date(row.updated_at),
    };
  });
};

/** One programme; undefined when there is none. */
export const loadProgramme = async (
  db: Kysely<ReadModels>,
  programmeId: string,
): Promise<ProgrammeRecord | undefined> => {
  const row = await db.selectFrom('programmes').selectAll().where('programme_id', '=', programmeId).executeTakeFirst();
  return row === undefined ? undefined : (await recordsOf(db, [row]))[0];
};

/** A page of the programmes in scope, oldest first, and how many there are. */
export const listProgrammes = async (
  db: Kysely<ReadModels>,
  scope: ProgrammeScope,
  query: { readonly currency?: string; readonly page: number; readonly page_size: number },
): Promise<{ items: ProgrammeRecord[]; total: number }> => {
  let selected = db.selectFrom('programmes');
  if (!('all' in scope)) {
    selected = scope.asReinsurer
      ? selected.where((eb) =>
          eb.or([
            eb('organization_id', '=', scope.organizationId),
            eb(
              'programme_id',
              'in',
              eb
                .selectFrom('treaties')
                .select('treaties.programme_id')
                .where('reinsurer_organization_id', '=', scope.organizationId),
            ),
          ]),
        )
      : selected.where('organization_id', '=', scope.organizationId);
  }
  if (query.currency !== undefined) selected = selected.where('currency', '=', query.currency);
  const [rows, { total }] = await Promise.all([
    selected
      .selectAll()
      .orderBy('created_at')
      .orderBy('programme_id')
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size)
      .execute(),
    selected.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: await recordsOf(db, rows), total: Number(total) };
};
