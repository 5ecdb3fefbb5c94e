import { decodeEvent, isOneOf } from '@cropcover/application';
import type { ExposureZone, ProgrammeEvent } from '@cropcover/contracts';
import { policyStream, programmeStream } from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { sql, type Transaction } from 'kysely';
import type { Projection } from '../projection';
import { anyOf } from './batch-parameters';

type Revised<Event> = Event & { readonly revision: number };

const PROGRAMME_EVENTS = new Set<ProgrammeEvent['type']>([
  'ProgrammeCreated',
  'ProgrammeUpdated',
  'ExposureReserved',
  'ExposureReleased',
]);
const PAYOUTS = new Set(['PayoutApproved'] as const);

interface ExposureDelta {
  programme_id: string;
  source_id: string;
  location: string;
  peril?: string;
  policies: number;
  sum_insured_minor: number;
  premium_minor: number;
}

/** The batch's movements of exposure, summed per row: a reservation adds, a release takes away. */
class ExposureDeltas {
  readonly zones = new Map<string, ExposureDelta>();
  readonly zonePerils = new Map<string, ExposureDelta>();
  readonly totals = new Map<string, { policies: number; sum_insured_minor: number; premium_minor: number }>();

  private static add(map: Map<string, ExposureDelta>, key: string, row: ExposureDelta) {
    const found = map.get(key);
    if (found === undefined) map.set(key, row);
    else {
      found.policies += row.policies;
      found.sum_insured_minor += row.sum_insured_minor;
      found.premium_minor += row.premium_minor;
    }
  }

  move(
    programmeId: string,
    exposure: { sum_insured_minor: number; premium_minor: number; zones: readonly ExposureZone[] },
    sign: 1 | -1,
  ): void {
    for (const zone of exposure.zones) {
      const zonePremium = zone.perils.reduce((sum, peril) => sum + peril.premium_minor, 0);
      const row = { programme_id: programmeId, source_id: zone.source_id, location: zone.location };
      ExposureDeltas.add(this.zones, JSON.stringify([programmeId, zone.source_id, zone.location]), {
        ...row,
        policies: sign,
        sum_insured_minor: sign * exposure.sum_insured_minor,
        premium_minor: sign * zonePremium,
      });
      for (const { peril, premium_minor } of zone.perils) {
        ExposureDeltas.add(this.zonePerils, JSON.stringify([programmeId, zone.source_id, zone.location, peril]), {
          ...row,
          peril,
          policies: sign,
          sum_insured_minor: sign * exposure.sum_insured_minor,
          premium_minor: sign * premium_minor,
        });
      }
    }
    const total = this.totals.get(programmeId) ?? { policies: 0, sum_insured_minor: 0, premium_minor: 0 };
    total.policies += sign;
    total.sum_insured_minor += sign * exposure.sum_insured_minor;
    total.premium_minor += sign * exposure.premium_minor;
    this.totals.set(programmeId, total);
  }
}

/** Serialises this projection's batches across processes: the revisions a batch reads are the ones its
 *  sums build on, so an event is counted once. */
const lockProgrammes = async (trx: Transaction<ReadModels>): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtextextended('cropcover.projection.programmes', 0))`.execute(trx);
};

const capacityRows = (programmeId: string, data: Extract<ProgrammeEvent, { type: 'ProgrammeCreated' }>['data']) => [
  ...data.capacity.zones.map((zone) => ({ programme_id: programmeId, ...zone, peril: '' })),
  ...data.capacity.zone_perils.map((rule) => ({ programme_id: programmeId, ...rule })),
];

const setCapacity = async (
  trx: Transaction<ReadModels>,
  programmeId: string,
  rule: { source_id: string; location: string; peril: string; capacity_minor: number | null },
): Promise<void> => {
  const capacity = rule.capacity_minor;
  if (capacity === null) {
    await trx
      .deleteFrom('programme_capacities')
      .where('programme_id', '=', programmeId)
      .where('source_id', '=', rule.source_id)
      .where('location', '=', rule.location)
      .where('peril', '=', rule.peril)
      .execute();
    return;
  }
  await trx
    .insertInto('programme_capacities')
    .values({ programme_id: programmeId, ...rule, capacity_minor: capacity })
    .onConflict((conflict) =>
      conflict.columns(['programme_id', 'source_id', 'location', 'peril']).doUpdateSet({ capacity_minor: capacity }),
    )
    .execute();
};

const applyUpdate = async (
  trx: Transaction<ReadModels>,
  data: Extract<ProgrammeEvent, { type: 'ProgrammeUpdated' }>['data'],
): Promise<void> => {
  const limits = {
    ...(data.aggregate_limit_minor === undefined ? {} : { aggregate_limit_minor: data.aggregate_limit_minor }),
    ...(data.capacity?.zone_default_minor === undefined
      ? {}
      : { zone_default_minor: data.capacity.zone_default_minor }),
  };
  await trx
    .updateTable('programmes')
    .set({ ...limits, updated_at: data.updated_at })
    .where('programme_id', '=', data.programme_id)
    .execute();
  for (const zone of data.capacity?.zones ?? []) await setCapacity(trx, data.programme_id, { ...zone, peril: '' });
  for (const rule of data.capacity?.zone_perils ?? []) await setCapacity(trx, data.programme_id, rule);
};

/** Adds the batch's movements to the exposure rows; a row made here takes the capacity in force. */
const upsertExposure = async (trx: Transaction<ReadModels>, deltas: ExposureDeltas): Promise<void> => {
  if (deltas.zones.size > 0) {
    await sql`
      insert into programme_zone_exposure
        (programme_id, source_id, location, policies, sum_insured_minor, premium_minor, capacity_minor)
      select d.programme_id, d.source_id, d.location, d.policies, d.sum_insured_minor, d.premium_minor,
             coalesce(c.capacity_minor, p.zone_default_minor)
      from json_to_recordset(${JSON.stringify([...deltas.zones.values()])}::json)
        as d(programme_id text, source_id text, location text, policies int, sum_insured_minor bigint, premium_minor bigint)
      join programmes p on p.programme_id = d.programme_id
      left join programme_capacities c
        on c.programme_id = d.programme_id and c.source_id = d.source_id and c.location = d.location and c.peril = ''
      on conflict (programme_id, source_id, location) do update set
        policies = programme_zone_exposure.policies + excluded.policies,
        sum_insured_minor = programme_zone_exposure.sum_insured_minor + excluded.sum_insured_minor,
        premium_minor = programme_zone_exposure.premium_minor + excluded.premium_minor`.execute(trx);
  }
  if (deltas.zonePerils.size > 0) {
    await sql`
      insert into programme_zone_peril_exposure
        (programme_id, source_id, location, peril, policies, sum_insured_minor, premium_minor, capacity_minor)
      select d.programme_id, d.source_id, d.location, d.peril, d.policies, d.sum_insured_minor, d.premium_minor,
             c.capacity_minor
      from json_to_recordset(${JSON.stringify([...deltas.zonePerils.values()])}::json)
        as d(programme_id text, source_id text, location text, peril text, policies int, sum_insured_minor bigint,
             premium_minor bigint)
      left join programme_capacities c
        on c.programme_id = d.programme_id and c.source_id = d.source_id and c.location = d.location and c.peril = d.peril
      on conflict (programme_id, source_id, location, peril) do update set
        policies = programme_zone_peril_exposure.policies + excluded.policies,
        sum_insured_minor = programme_zone_peril_exposure.sum_insured_minor + excluded.sum_insured_minor,
        premium_minor = programme_zone_peril_exposure.premium_minor + excluded.premium_minor`.execute(trx);
  }
  const touched = [...new Set([...deltas.zones.values()].map((delta) => delta.programme_id))];
  if (touched.length > 0) {
    // A zone nothing is written in any more is no exposure; its capacity rule stays in programme_capacities.
    await trx
      .deleteFrom('programme_zone_exposure')
      .where('programme_id', '=', anyOf(touched))
      .where('policies', '=', 0)
      .execute();
    await trx
      .deleteFrom('programme_zone_peril_exposure')
      .where('programme_id', '=', anyOf(touched))
      .where('policies', '=', 0)
      .execute();
  }
};

/** After a change of limits, every exposure row of the programme shows the capacity now in force. */
const refreshCapacities = async (trx: Transaction<ReadModels>, programmeIds: readonly string[]): Promise<void> => {
  if (programmeIds.length === 0) return;
  await sql`
    update programme_zone_exposure e set capacity_minor = coalesce(
      (select c.capacity_minor from programme_capacities c
        where c.programme_id = e.programme_id and c.source_id = e.source_id and c.location = e.location and c.peril = ''),
      (select p.zone_default_minor from programmes p where p.programme_id = e.programme_id))
    where e.programme_id = ${anyOf(programmeIds)}`.execute(trx);
  await sql`
    update programme_zone_peril_exposure e set capacity_minor =
      (select c.capacity_minor from programme_capacities c
        where c.programme_id = e.programme_id and c.source_id = e.source_id and c.location = e.location
          and c.peril = e.peril)
    where e.programme_id = ${anyOf(programmeIds)}`.execute(trx);
};

/**
 * Programmes (`programmes`, their rules in `programme_capacities`), their exposure per zone and per (zone,
 * peril), and the policies reserved in them (`programme_policies`, with what each was paid), from the
 * `programme-<id>` streams and the policies' PayoutApproved. A programme's events at or below its row's
 * stream_revision were applied before and are skipped; the batch's reservations and releases are summed
 * per row and added in one statement per table.
 */
export const programmesProjection: Projection = {
  name: 'programmes',
  tables: [
    'programmes',
    'programme_capacities',
    'programme_zone_exposure',
    'programme_zone_peril_exposure',
    'programme_policies',
  ],
  apply: async (trx, events) => {
    const programmeEvents = events
      .filter((event) => programmeStream.idOf(event.streamId) !== undefined)
      .filter(isOneOf(PROGRAMME_EVENTS))
      .map((event): Revised<ProgrammeEvent> => ({ ...decodeEvent(event), revision: event.revision }));
    const payouts = events
      .filter((event) => policyStream.idOf(event.streamId) !== undefined)
      .filter(isOneOf(PAYOUTS))
      .map((event: RecordedEvent<'PayoutApproved'>) => ({ ...decodeEvent(event).data, revision: event.revision }));
    if (programmeEvents.length === 0 && payouts.length === 0) return;
    await lockProgrammes(trx);
    const ids = [...new Set(programmeEvents.map((event) => event.data.programme_id))];
    const revisions = new Map(
      ids.length === 0
        ? []
        : (
            await trx
              .selectFrom('programmes')
              .select(['programme_id', 'stream_revision'])
              .where('programme_id', '=', anyOf(ids))
              .execute()
          ).map((row) => [row.programme_id, row.stream_revision]),
    );
    const deltas = new ExposureDeltas();
    const updated = new Set<string>();
    const latest = new Map<string, number>();
    for (const event of programmeEvents) {
      const programmeId = event.data.programme_id;
      if (event.revision <= (revisions.get(programmeId) ?? -1)) continue;
      revisions.set(programmeId, event.revision);
      switch (event.type) {
        case 'ProgrammeCreated': {
          const { data } = event;
          await trx
            .insertInto('programmes')
            .values({
              programme_id: programmeId,
              organization_id: data.organization_id,
              name: data.name,
              currency: data.currency,
              is_default: data.is_default,
              aggregate_limit_minor: data.aggregate_limit_minor,
              zone_default_minor: data.capacity.zone_default_minor,
              policies: 0,
              sum_insured_minor: 0,
              premium_minor: 0,
              created_at: data.created_at,
              updated_at: data.created_at,
              stream_revision: event.revision,
            })
            .execute();
          const rules = capacityRows(programmeId, data);
          if (rules.length > 0) await trx.insertInto('programme_capacities').values(rules).execute();
          break;
        }
        case 'ProgrammeUpdated':
          await applyUpdate(trx, event.data);
          updated.add(programmeId);
          break;
        case 'ExposureReserved':
          deltas.move(programmeId, event.data, 1);
          await trx
            .insertInto('programme_policies')
            .values({
              policy_id: event.data.policy_id,
              programme_id: programmeId,
              issued_on: event.data.reserved_at.slice(0, 10),
              sum_insured_minor: event.data.sum_insured_minor,
              premium_minor: event.data.premium_minor,
              claims_minor: 0,
              claims_revision: -1,
              released_reason: null,
            })
            .onConflict((conflict) => conflict.column('policy_id').doNothing())
            .execute();
          break;
        case 'ExposureReleased':
          deltas.move(programmeId, event.data, -1);
          await trx
            .updateTable('programme_policies')
            .set({ released_reason: event.data.reason })
            .where('policy_id', '=', event.data.policy_id)
            .execute();
          break;
      }
      latest.set(programmeId, event.revision);
    }
    await upsertExposure(trx, deltas);
    await refreshCapacities(trx, [...updated]);
    for (const [programmeId, revision] of latest) {
      const total = deltas.totals.get(programmeId) ?? { policies: 0, sum_insured_minor: 0, premium_minor: 0 };
      await trx
        .updateTable('programmes')
        .set((eb) => ({
          policies: eb('policies', '+', total.policies),
          sum_insured_minor: eb('sum_insured_minor', '+', BigInt(total.sum_insured_minor)),
          premium_minor: eb('premium_minor', '+', BigInt(total.premium_minor)),
          stream_revision: revision,
        }))
        .where('programme_id', '=', programmeId)
        .execute();
    }
    // What a policy was paid, once per payout: its revision must be newer than the last one counted.
    for (const payout of payouts) {
      await trx
        .updateTable('programme_policies')
        .set((eb) => ({
          claims_minor: eb('claims_minor', '+', BigInt(payout.amount_minor)),
          claims_revision: payout.revision,
        }))
        .where('policy_id', '=', payout.policy_id)
        .where('claims_revision', '<', payout.revision)
        .execute();
    }
  },
};
