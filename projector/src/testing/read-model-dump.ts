import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

export type TableDump = readonly Record<string, unknown>[];

// Byte order ("C"), as JavaScript sorts strings, whatever the database's collation.
const ORDER: Record<string, string> = {
  farmers: 'farmer_id collate "C"',
  farms: 'farm_id collate "C"',
  farm_fields: 'farm_id collate "C", field_id collate "C"',
  farm_organizations: 'farm_id collate "C", organization_id collate "C"',
};

const comparable = (row: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(row).map(([column, value]) => [column, value instanceof Date ? value.toISOString() : value]),
  );

/** Every read-model table, rows sorted by key, and each projection's checkpoint position. */
export const dumpReadModels = async (db: Kysely<ReadModels>): Promise<Record<string, TableDump>> => {
  const dump: Record<string, TableDump> = {};
  for (const [table, order] of Object.entries(ORDER)) {
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} order by ${sql.raw(order)}`.execute(db);
    dump[table] = rows.map(comparable);
  }
  dump.projection_checkpoints = await db
    .selectFrom('projection_checkpoints')
    .select(['name', 'commit_position', 'prepare_position'])
    .orderBy('name')
    .execute();
  return dump;
};
