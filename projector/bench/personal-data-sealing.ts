import { farmerKeysIn, withSealedPersonalData } from '@cropcover/application';
import { createEventStore, type EventStore, migrateEventStore, type NewEvent } from '@cropcover/eventstore';
import { readModelProjections, rebuildProjections } from '@cropcover/projector';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';

// Issue 25: what sealing farmers' personal data costs. Farm create = the append of a FarmRegistered
// (its name and location sealed with the owner's existing key, which a farm create looks up) through the
// sealing store vs the bare store; a full rebuild of every read model from the log through the sealing
// store (every farmer and farm event opened) vs the bare store. Rounds alternate on and off in the same
// run. In-process against the event store and read store, without HTTP: the part sealing changes.
// Run: npx tsx projector/bench/personal-data-sealing.ts   (BENCH_FARMS 2000, BENCH_ROUNDS 3)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const FARMS = Number(process.env.BENCH_FARMS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const metadata = () => ({
  event_id: crypto.randomUUID(),
  occurred_at: new Date().toISOString(),
  actor: 'bench',
  organization_id: null,
  correlation_id: 'bench',
  causation_id: null,
  schema_version: 1,
  platform_version: 'bench',
});
const farmerRegistered = (farmerId: string): NewEvent => ({
  type: 'FarmerRegistered',
  data: {
    farmer_id: farmerId,
    subject: `sub-${farmerId}`,
    platform_farmer_id: `PF-${farmerId}`,
    first_name: 'Amina',
    last_name: 'Otieno',
    phone_number: '+254712345678',
    language: 'sw',
    upload_channel: null,
    whatsapp_number: null,
    data_consent_given: true,
    onboarding_status: 'completed',
    source: 'profile',
    registered_at: new Date().toISOString(),
  },
  metadata: metadata(),
});
const farmRegistered = (farmId: string, farmerId: string): NewEvent => ({
  type: 'FarmRegistered',
  data: {
    farm_id: farmId,
    platform_farm_id: `PM-${farmId}`,
    owner_farmer_id: farmerId,
    owner_subject: `sub-${farmerId}`,
    registered_by_org_id: null,
    name: 'Shamba ya Amina',
    has_irrigation: false,
    farm_type: null,
    farm_size: null,
    tenure_type: null,
    irrigation_type: null,
    water_source: null,
    common_grown_crops: null,
    soil_type: null,
    currency: null,
    location: 'by the river',
    country: 'KE',
    created_at: new Date().toISOString(),
  },
  metadata: metadata(),
});

const database = await createTestDatabase('bench_sealing');
const pool = createPool(database.url, createLogger({ level: 'silent' }));
const db = createKysely<ReadModels>(pool);
try {
  await migrateEventStore(pool);
  await migrateReadModels(db);
  const bare = createEventStore({ eventstoreUrl: undefined, pool });
  const sealed = withSealedPersonalData(bare, farmerKeysIn(db, [{ id: 'bench', key: Buffer.alloc(32, 1) }]));
  const stores: Record<'on' | 'off', EventStore> = { on: sealed, off: bare };

  // Farmers first (sealed, so each has a key as a real farm create finds it), 8 appends at a time.
  const farmerIds = Array.from({ length: FARMS * ROUNDS * 2 }, (_, index) => `f${index}`);
  for (let start = 0; start < farmerIds.length; start += 8)
    await Promise.all(
      farmerIds.slice(start, start + 8).map((id) => sealed.append(`farmer-${id}`, [farmerRegistered(id)], 'no_stream')),
    );

  const creates: Record<'on' | 'off', number[]> = { on: [], off: [] };
  let next = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const mode of ['on', 'off'] as const) {
      const started = performance.now();
      for (let start = 0; start < FARMS; start += 8) {
        await Promise.all(
          Array.from({ length: 8 }, () => {
            const farmerId = farmerIds[next]!;
            next += 1;
            return stores[mode].append(`farm-b${next}`, [farmRegistered(`b${next}`, farmerId)], 'no_stream');
          }),
        );
      }
      creates[mode].push(FARMS / ((performance.now() - started) / 1000));
    }
  }

  const rebuilds: Record<'on' | 'off', number[]> = { on: [], off: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const mode of ['on', 'off'] as const) {
      const result = await rebuildProjections({ eventStore: stores[mode], db, projections: readModelProjections });
      rebuilds[mode].push(result.eventsPerSecond);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const report = (name: string, figures: Record<'on' | 'off', number[]>, unit: string) =>
    console.info(
      `${name}: on ${median(figures.on).toFixed(0)} ${unit}, off ${median(figures.off).toFixed(0)} ${unit}, ` +
        `ratio ${(median(figures.on) / median(figures.off)).toFixed(2)} (rounds on ${figures.on.map((v) => v.toFixed(0)).join(', ')}; off ${figures.off.map((v) => v.toFixed(0)).join(', ')})`,
    );
  report('farm create (append FarmRegistered, 8 at once)', creates, 'farms/s');
  report(`full rebuild (${farmerIds.length + next} events)`, rebuilds, 'events/s');
} finally {
  await db.destroy();
  await database.drop();
}
