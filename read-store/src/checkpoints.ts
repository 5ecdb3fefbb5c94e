import type { AllStreamStart, GlobalPosition } from '@cropcover/eventstore';
import type { Kysely, Transaction } from 'kysely';
import type { ReadModels } from './read-models';

// A projection's checkpoint is the position of the last event it applied. It is written in the same
// transaction as the rows that event produced, so the two can never disagree after a crash.

/** Positions are stored as numeric text, so no 64-bit value loses precision on the way. */
export const positionFromColumns = (commit: string, prepare: string): GlobalPosition => ({
  commit: BigInt(commit),
  prepare: BigInt(prepare),
});

export const readCheckpoint = async (
  db: Kysely<ReadModels>,
  name: string,
): Promise<GlobalPosition | AllStreamStart> => {
  const row = await db
    .selectFrom('projection_checkpoints')
    .select(['commit_position', 'prepare_position'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? positionFromColumns(row.commit_position, row.prepare_position) : 'start';
};

export const saveCheckpoint = (trx: Transaction<ReadModels>, name: string, position: GlobalPosition): Promise<void> =>
  saveCheckpoints(trx, [name], position);

/** Moves several checkpoints to one position in one statement (projections that followed the same batch). */
export const saveCheckpoints = async (
  trx: Transaction<ReadModels>,
  names: readonly string[],
  position: GlobalPosition,
): Promise<void> => {
  const values = {
    commit_position: position.commit.toString(),
    prepare_position: position.prepare.toString(),
    updated_at: new Date(),
  };
  await trx
    .insertInto('projection_checkpoints')
    .values(names.map((name) => ({ name, ...values })))
    .onConflict((conflict) =>
      conflict.column('name').doUpdateSet((eb) => ({
        commit_position: eb.ref('excluded.commit_position'),
        prepare_position: eb.ref('excluded.prepare_position'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
};
