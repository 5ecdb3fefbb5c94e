import type { ReadModels, ReadModelTable } from '@cropcover/read-store';
import { type Kysely, sql, type Transaction } from 'kysely';

// A rebuild writes into a shadow copy of the read-model tables while the live ones keep serving queries,
// then swaps the copies in within one transaction (blue-green). The copies carry the live tables' exact
// definitions — column defaults and checks, constraint and index names — so that after the swap the
// tables are indistinguishable from the ones the migrations made, and later migrations still apply.

/** Where the rebuilt tables and their checkpoints grow until the swap. */
export const SHADOW_SCHEMA = 'read_models_rebuild';
/** Where the replaced tables go at the swap, dropped right after it commits. */
const RETIRED_SCHEMA = 'read_models_retired';
const LIVE_SCHEMA = 'public';

/** Taken shared by every live projection batch and exclusively by the swap: the swap waits for batches
 *  in flight, and batches that start meanwhile wait for it, then write the tables that were swapped in. */
const SWAP_LOCK = sql`hashtextextended('cropcover.read_models.swap', 0)`;

export const holdOffSwap = async (trx: Transaction<ReadModels>): Promise<void> => {
  await sql`select pg_advisory_xact_lock_shared(${SWAP_LOCK})`.execute(trx);
};

const lockOutBatches = async (trx: Transaction<ReadModels>): Promise<void> => {
  await sql`select pg_advisory_xact_lock(${SWAP_LOCK})`.execute(trx);
};

/**
 * Makes the transaction write the shadow tables: unqualified names resolve to the shadow schema first,
 * and the live one for tables a rebuild does not own. Without waiting for the commit to reach disk: a
 * rebuild that loses a batch to a crash is started again from the beginning, never resumed.
 */
export const writeShadow = async (trx: Transaction<ReadModels>): Promise<void> => {
  await sql`select set_config('search_path', ${`${SHADOW_SCHEMA}, ${LIVE_SCHEMA}`}, true),
                   set_config('synchronous_commit', 'off', true)`.execute(trx);
};

interface IndexDefinition {
  readonly table: string;
  readonly definition: string;
}

/** Indexes that back no constraint, in the shadow schema: built once the shadow is loaded, which is
 *  cheaper than keeping them up to date row by row. */
const secondaryIndexes = async (db: Kysely<ReadModels>, tables: readonly string[]): Promise<IndexDefinition[]> => {
  const { rows } = await sql<IndexDefinition>`
    select t.relname as "table", pg_get_indexdef(i.indexrelid) as definition
    from pg_index i
    join pg_class t on t.oid = i.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = ${LIVE_SCHEMA} and t.relname = any(${tables}::text[])
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
    order by t.relname, i.indexrelid`.execute(db);
  return rows.map((row) => ({
    table: row.table,
    definition: row.definition.replace(
      new RegExp(` ON (ONLY )?(${LIVE_SCHEMA}\\.)?"?${row.table}"? USING `),
      ` ON $1${SHADOW_SCHEMA}.${row.table} USING `,
    ),
  }));
};

/**
 * Creates the shadow schema afresh with an empty copy of each table and of the checkpoints table:
 * columns, defaults and checks by `like`, then primary keys and unique constraints under their live names
 * (upserts need them while loading). Unlogged while loading: nothing in them is worth a WAL record
 * until the swap, before which `makeShadowDurable` logs them.
 */
export const createShadow = async (db: Kysely<ReadModels>, tables: readonly ReadModelTable[]): Promise<void> => {
  await db.transaction().execute(async (trx) => {
    await sql`drop schema if exists ${sql.id(SHADOW_SCHEMA)} cascade`.execute(trx);
    await sql`create schema ${sql.id(SHADOW_SCHEMA)}`.execute(trx);
    for (const table of [...tables, 'projection_checkpoints']) {
      await sql`create unlogged table ${sql.table(`${SHADOW_SCHEMA}.${table}`)}
        (like ${sql.table(`${LIVE_SCHEMA}.${table}`)} including defaults including constraints including generated
          including identity including storage including comments)`.execute(trx);
      const { rows: constraints } = await sql<{ name: string; definition: string }>`
        select conname as name, pg_get_constraintdef(oid) as definition
        from pg_constraint
        where conrelid = ${`${LIVE_SCHEMA}.${table}`}::regclass and contype in ('p', 'u', 'x')
        order by conname`.execute(trx);
      for (const constraint of constraints) {
        await sql`alter table ${sql.table(`${SHADOW_SCHEMA}.${table}`)}
          add constraint ${sql.id(constraint.name)} ${sql.raw(constraint.definition)}`.execute(trx);
      }
    }
  });
};

/** Builds the secondary indexes and turns the shadow tables logged, outside the swap: the swap then only
 *  moves tables, however large they are. */
export const makeShadowDurable = async (db: Kysely<ReadModels>, tables: readonly ReadModelTable[]): Promise<void> => {
  for (const index of await secondaryIndexes(db, tables)) await sql.raw(index.definition).execute(db);
  for (const table of [...tables, 'projection_checkpoints']) {
    await sql`alter table ${sql.table(`${SHADOW_SCHEMA}.${table}`)} set logged`.execute(db);
  }
};

/**
 * Swaps the shadow tables in. In one transaction: live projection batches are locked out, `catchUp`
 * brings the shadow to the head of the log (on this transaction, writing the shadow), the live
 * tables move out and the shadow ones in, and the live checkpoints of the rebuilt projections take the
 * shadow's. Queries wait only for the moves; a projector that was running resumes from its own (older)
 * position and re-applies events the new tables already hold, which changes nothing.
 */
export const swapShadowIn = async (
  db: Kysely<ReadModels>,
  projections: readonly { readonly name: string; readonly tables: readonly ReadModelTable[] }[],
  catchUp: (trx: Transaction<ReadModels>) => Promise<void>,
): Promise<void> => {
  const tables = [...new Set(projections.flatMap((projection) => projection.tables))];
  await db.transaction().execute(async (trx) => {
    await lockOutBatches(trx);
    await writeShadow(trx);
    await catchUp(trx);
    // The swap itself is committed durably, as any change to what queries read.
    await sql`select set_config('search_path', ${LIVE_SCHEMA}, true),
                     set_config('synchronous_commit', 'on', true)`.execute(trx);
    await sql`drop schema if exists ${sql.id(RETIRED_SCHEMA)} cascade`.execute(trx);
    await sql`create schema ${sql.id(RETIRED_SCHEMA)}`.execute(trx);
    for (const table of tables) {
      await sql`alter table ${sql.table(`${LIVE_SCHEMA}.${table}`)} set schema ${sql.id(RETIRED_SCHEMA)}`.execute(trx);
      await sql`alter table ${sql.table(`${SHADOW_SCHEMA}.${table}`)} set schema ${sql.id(LIVE_SCHEMA)}`.execute(trx);
    }
    // A projection with no event in the log has no shadow checkpoint: it starts over, as its tables did.
    await trx
      .deleteFrom('projection_checkpoints')
      .where(
        'name',
        'in',
        projections.map((projection) => projection.name),
      )
      .execute();
    await sql`
      insert into ${sql.table(`${LIVE_SCHEMA}.projection_checkpoints`)}
      select * from ${sql.table(`${SHADOW_SCHEMA}.projection_checkpoints`)}`.execute(trx);
  });
  await dropShadow(db);
};

/** Removes what a swap or an abandoned rebuild left behind. */
export const dropShadow = async (db: Kysely<ReadModels>): Promise<void> => {
  await sql`drop schema if exists ${sql.id(RETIRED_SCHEMA)} cascade`.execute(db);
  await sql`drop schema if exists ${sql.id(SHADOW_SCHEMA)} cascade`.execute(db);
};
