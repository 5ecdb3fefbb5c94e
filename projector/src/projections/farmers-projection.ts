import { decodeEvent, isOneOf } from '@cropcover/application';
import type { FarmerEvent } from '@cropcover/contracts';
import { ERASED_PROFILE } from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';
import type { FarmersTable, ReadModels } from '@cropcover/read-store';
import type { Insertable, Transaction } from 'kysely';
import type { Projection } from '../projection';
import { anyOf, recordsetOf } from './batch-parameters';

type FarmerRow = Insertable<FarmersTable>;
type RevisedFarmerEvent = FarmerEvent & { readonly revision: number };

// `FarmerLoginLinked` marks a login's own profile stream as holding a claimed profile: no row of its own.
const HANDLED = new Set<FarmerEvent['type']>([
  'FarmerRegistered',
  'FarmerEnrolled',
  'FarmerProfileClaimed',
  'FarmerProfileUpdated',
  'FarmerErased',
]);
type HandledEvent = Exclude<RevisedFarmerEvent, { type: 'FarmerLoginLinked' }>;

const decode = (event: RecordedEvent<FarmerEvent['type']>): HandledEvent =>
  ({ ...decodeEvent(event), revision: event.revision }) as HandledEvent;

const loadRows = async (
  trx: Transaction<ReadModels>,
  farmerIds: readonly string[],
): Promise<Map<string, FarmerRow>> => {
  const selected = await trx.selectFrom('farmers').selectAll().where('farmer_id', '=', anyOf(farmerIds)).execute();
  return new Map<string, FarmerRow>(selected.map((row) => [row.farmer_id, row]));
};

/** The row after the event, or undefined when the event is already reflected (a replay) and changes nothing. */
const evolve = (row: FarmerRow | undefined, event: HandledEvent): FarmerRow | undefined => {
  switch (event.type) {
    case 'FarmerRegistered': {
      if (row) return undefined;
      const { source: _, registered_at, ...farmer } = event.data;
      return {
        ...farmer,
        is_active: true,
        created_at: registered_at,
        updated_at: registered_at,
        stream_revision: event.revision,
      };
    }
    case 'FarmerEnrolled': {
      if (row) return undefined;
      const { registered_by_org_id: _org, enrolled_by: _agent, farm_id: _farm, enrolled_at, ...farmer } = event.data;
      return {
        ...farmer,
        subject: null,
        is_active: true,
        created_at: enrolled_at,
        updated_at: enrolled_at,
        stream_revision: event.revision,
      };
    }
    case 'FarmerProfileClaimed':
      if (!row || row.stream_revision >= event.revision) return undefined;
      return { ...row, subject: event.data.subject, stream_revision: event.revision };
    case 'FarmerProfileUpdated': {
      if (!row || row.stream_revision >= event.revision) return undefined;
      const { changes, onboarding_status, updated_at } = event.data;
      return { ...row, ...changes, onboarding_status, updated_at, stream_revision: event.revision };
    }
    case 'FarmerErased': {
      // The events applied before were opened with the key erasure destroyed: scrub what they wrote.
      if (!row || row.stream_revision >= event.revision) return undefined;
      const { erased_at } = event.data;
      return { ...row, ...ERASED_PROFILE, updated_at: erased_at, stream_revision: event.revision };
    }
  }
};

const upsert = async (trx: Transaction<ReadModels>, rows: readonly FarmerRow[]): Promise<void> => {
  if (rows.length === 0) return;
  await trx
    .insertInto('farmers')
    .expression(recordsetOf('farmers', rows))
    .onConflict((conflict) =>
      conflict
        .column('farmer_id')
        .doUpdateSet((eb) => ({
          subject: eb.ref('excluded.subject'),
          platform_farmer_id: eb.ref('excluded.platform_farmer_id'),
          first_name: eb.ref('excluded.first_name'),
          last_name: eb.ref('excluded.last_name'),
          phone_number: eb.ref('excluded.phone_number'),
          language: eb.ref('excluded.language'),
          upload_channel: eb.ref('excluded.upload_channel'),
          whatsapp_number: eb.ref('excluded.whatsapp_number'),
          onboarding_status: eb.ref('excluded.onboarding_status'),
          data_consent_given: eb.ref('excluded.data_consent_given'),
          is_active: eb.ref('excluded.is_active'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
          stream_revision: eb.ref('excluded.stream_revision'),
        }))
        // Never let an older view of the row overwrite a newer one.
        .where('farmers.stream_revision', '<', (eb) => eb.ref('excluded.stream_revision')),
    )
    .execute();
};

/** Farmer profiles (`farmers`), from the `farmer-<id>` streams. Reads the rows a batch touches, applies
 *  its events to them in memory (skipping those at or below a row's stream_revision) and writes back
 *  each changed row once. */
export const farmersProjection: Projection = {
  name: 'farmers',
  tables: ['farmers'],
  apply: async (trx, events) => {
    const farmerEvents = events.filter(isOneOf(HANDLED)).map(decode);
    if (farmerEvents.length === 0) return;
    const rows = await loadRows(trx, [...new Set(farmerEvents.map((event) => event.data.farmer_id))]);
    const changed = new Map<string, FarmerRow>();
    for (const event of farmerEvents) {
      const next = evolve(rows.get(event.data.farmer_id), event);
      if (!next) continue;
      rows.set(next.farmer_id, next);
      changed.set(next.farmer_id, next);
    }
    await upsert(trx, [...changed.values()]);
  },
};
