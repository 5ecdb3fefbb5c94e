import type { IssuedPolicy } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { sql, type Transaction } from 'kysely';
import { inChunks } from './row-chunks';

interface CountKey {
  readonly organization_id: string;
  readonly status: string;
  readonly perils: string[];
}

const countKey = (policy: IssuedPolicy): CountKey => ({
  organization_id: policy.issued.organization_id,
  status: policy.status,
  perils: [...policy.issued.perils].sort(),
});

/** The changes to policy_counts when policies move from `before` (absent: not yet issued) to `after`. */
export const policyCountChanges = (
  changes: readonly { readonly before: IssuedPolicy | undefined; readonly after: IssuedPolicy }[],
): (CountKey & { policies: number })[] => {
  const deltas = new Map<string, CountKey & { policies: number }>();
  const add = (key: CountKey, delta: number) => {
    const id = JSON.stringify(key);
    const row = deltas.get(id) ?? { ...key, policies: 0 };
    deltas.set(id, { ...row, policies: row.policies + delta });
  };
  for (const { before, after } of changes) {
    if (before?.status === after.status) continue;
    if (before) add(countKey(before), -1);
    add(countKey(after), 1);
  }
  return [...deltas.values()].filter((row) => row.policies !== 0);
};

export const applyPolicyCountChanges = async (
  trx: Transaction<ReadModels>,
  rows: readonly (CountKey & { policies: number })[],
): Promise<void> => {
  for (const chunk of inChunks(rows)) {
    await trx
      .insertInto('policy_counts')
      .values(chunk)
      .onConflict((conflict) =>
        conflict
          .columns(['organization_id', 'status', 'perils'])
          .doUpdateSet({ policies: sql`policy_counts.policies + excluded.policies` }),
      )
      .execute();
  }
};
