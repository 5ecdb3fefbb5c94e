import { decodeEvent, isOneOf } from '@cropcover/application';
import type { ReinsuranceEvent } from '@cropcover/contracts';
import { reinsuranceStream } from '@cropcover/domain';
import type { ReadModels, ReinsuranceLedgerTable } from '@cropcover/read-store';
import type { Insertable, Transaction } from 'kysely';
import type { Projection } from '../projection';
import { inChunks } from './row-chunks';

type LedgerRow = Insertable<ReinsuranceLedgerTable>;
type Revised = ReinsuranceEvent & { readonly revision: number; readonly eventId: string };

const HANDLED = new Set<ReinsuranceEvent['type']>([
  'TreatyBound',
  'PremiumCeded',
  'CessionRecorded',
  'RecoveryRecorded',
]);

/** The ledger row of an entry, in the CessionEntry's terms: for a recovery, what it applies to is its
 *  subject (no movement of its own), and what is ceded is the change of the recovery. */
const ledgerRow = (event: Revised): LedgerRow | undefined => {
  if (event.type !== 'PremiumCeded' && event.type !== 'CessionRecorded' && event.type !== 'RecoveryRecorded') {
    return undefined;
  }
  const common = {
    entry_id: event.eventId,
    programme_id: event.data.programme_id,
    stream_revision: event.revision,
    treaty_id: event.data.treaty_id,
    source_event: event.data.source_event,
    recorded_at: event.data.recorded_at,
  };
  switch (event.type) {
    case 'PremiumCeded':
      return {
        ...common,
        kind: 'premium',
        policy_id: event.data.policy_id,
        source_id: null,
        location: null,
        peril: null,
        cat_event: null,
        gross_minor: event.data.gross_minor,
        cumulative_gross_minor: event.data.cumulative_gross_minor,
        ceded_minor: event.data.ceded_minor,
        cumulative_ceded_minor: event.data.cumulative_ceded_minor,
        net_minor: event.data.gross_minor - event.data.ceded_minor,
      };
    case 'CessionRecorded':
      return {
        ...common,
        kind: 'claim',
        policy_id: event.data.policy_id,
        source_id: event.data.source_id,
        location: event.data.location,
        peril: event.data.peril,
        cat_event: null,
        gross_minor: event.data.gross_minor,
        cumulative_gross_minor: event.data.cumulative_gross_minor,
        ceded_minor: event.data.ceded_minor,
        cumulative_ceded_minor: event.data.cumulative_ceded_minor,
        net_minor: event.data.net_minor,
      };
    case 'RecoveryRecorded':
      return {
        ...common,
        kind: 'recovery',
        policy_id: null,
        source_id: null,
        location: null,
        peril: null,
        cat_event: event.data.cat_event,
        gross_minor: 0,
        cumulative_gross_minor: event.data.subject_minor,
        ceded_minor: event.data.delta_minor,
        cumulative_ceded_minor: event.data.cumulative_recovery_minor,
        net_minor: -event.data.delta_minor,
      };
  }
};

/** Moves a treaty's cumulative figures, once: only an event newer than the row's revision counts. */
const moveTreaty = async (trx: Transaction<ReadModels>, event: Revised): Promise<void> => {
  if (event.type === 'TreatyBound' || event.type === 'SubjectPremiumRecorded' || event.type === 'SubjectLossRecorded') {
    return;
  }
  const update = trx
    .updateTable('treaties')
    .where('treaty_id', '=', event.data.treaty_id)
    .where('stream_revision', '<', event.revision);
  if (event.type === 'PremiumCeded') {
    await update
      .set({
        ceded_premium_minor: event.data.cumulative_ceded_minor,
        ceding_commission_minor: event.data.cumulative_ceding_commission_minor,
        stream_revision: event.revision,
      })
      .execute();
  } else if (event.type === 'CessionRecorded') {
    await update
      .set({ recoveries_minor: event.data.cumulative_ceded_minor, stream_revision: event.revision })
      .execute();
  } else {
    // A cat XL's recoveries are per event: its total moves by each event's change.
    const delta = BigInt(event.data.delta_minor);
    await update
      .set((eb) => ({ recoveries_minor: eb('recoveries_minor', '+', delta), stream_revision: event.revision }))
      .execute();
  }
};

/** Treaties (`treaties`, with what their entries add up to) and the cession ledger (`reinsurance_ledger`)
 *  from the `reinsurance-<programme_id>` streams. Ledger rows are keyed by event id, so a replayed batch
 *  adds none twice; a treaty's figures move only for events newer than its row. */
export const reinsuranceProjection: Projection = {
  name: 'reinsurance',
  tables: ['treaties', 'reinsurance_ledger'],
  apply: async (trx, events) => {
    const handled = events
      .filter((event) => reinsuranceStream.idOf(event.streamId) !== undefined)
      .filter(isOneOf(HANDLED))
      .map((event): Revised => ({ ...decodeEvent(event), revision: event.revision, eventId: event.metadata.event_id }));
    if (handled.length === 0) return;
    for (const event of handled) {
      if (event.type !== 'TreatyBound') continue;
      const { data } = event;
      await trx
        .insertInto('treaties')
        .values({
          treaty_id: data.treaty_id,
          programme_id: data.programme_id,
          organization_id: data.organization_id,
          reinsurer_organization_id: data.reinsurer_organization_id,
          type: data.terms.type,
          terms: JSON.stringify(data.terms),
          period_from: data.period.from,
          period_to: data.period.to,
          inurance_order: data.inurance_order,
          bound_at: data.bound_at,
          ceded_premium_minor: 0,
          ceding_commission_minor: 0,
          recoveries_minor: 0,
          stream_revision: event.revision,
        })
        .onConflict((conflict) => conflict.column('treaty_id').doNothing())
        .execute();
    }
    for (const event of handled) await moveTreaty(trx, event);
    const rows = handled.flatMap((event) => ledgerRow(event) ?? []);
    for (const chunk of inChunks(rows)) {
      await trx
        .insertInto('reinsurance_ledger')
        .values(chunk)
        .onConflict((conflict) => conflict.column('entry_id').doNothing())
        .execute();
    }
  },
};
