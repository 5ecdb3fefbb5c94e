import { cachedFarmerKeys, farmerKeysIn, withSealedPersonalData } from '@cropcover/application';
import { createEventStore, type EventStore, migrateEventStore, type NewEvent } from '@cropcover/eventstore';
import { readModelProjections, rebuildProjections } from '@cropcover/projector';
import { listenToFarmerKeyErasures, migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';

// Issue 25: what sealing farmers' personal data costs. Farm create = what the command does with the log:
// load the owner's profile (opened with their key), then append a FarmRegistered (its name and location
// sealed with the same key), through the sealing store with its per-process key cache ("on"), without
// the cache ("uncached", as before it) and the bare store ("off"); a full rebuild of every read model from the log through the sealing
// store (every farmer and farm event opened) vs the bare store. Rounds alternate on and off in the same
// run. In-process against the event store and read store, without HTTP: the part sealing changes.
// Run: npx tsx projector/bench/personal-data-sealing.ts   (BENCH_FARMS 2000, BENCH_ROUNDS 3)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const FARMS = Number(process.env.BENCH_FARMS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODES = ['on', 'uncached', 'off'] as const;
type Mode = (typeof MODES)[number];
const perMode = (): Record<Mode, number[]> => ({ on: [], uncached: [], off: [] });

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
  const keys = () => farmerKeysIn(db, [{ id: 'bench', key: Buffer.alloc(32, 1) }]);
  const logger = createLogger({ level: 'silent' });
  // "on" as processes run it (keys cached per process); "uncached" as before the cache (issue 25's first figures).
  const cached = () =>
    withSealedPersonalData(
      bare,
      cachedFarmerKeys(keys(), (watcher) => listenToFarmerKeyErasures(pool, logger, watcher)),
    );
  const sealed = cached();
  const stores: Record<Mode, EventStore> = { on: sealed, uncached: withSealedPersonalData(bare, keys()), off: bare };

  // Farmers first (sealed, so each has a key as a real farm create finds it; through the uncached store, so
  // no process has their key yet: the cache's worst case), 8 appends at a time.
  const farmerIds = Array.from({ length: FARMS * ROUNDS * MODES.length }, (_, index) => `f${index}`);
  for (let start = 0; start < farmerIds.length; start += 8)
    await Promise.all(
      farmerIds
        .slice(start, start + 8)
        .map((id) => stores.uncached.append(`farmer-${id}`, [farmerRegistered(id)], 'no_stream')),
    );

  const creates = perMode();
  let next = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const mode of MODES) {
      const started = performance.now();
      for (let start = 0; start < FARMS; start += 8) {
        await Promise.all(
          Array.from({ length: 8 }, () => {
            const farmerId = farmerIds[next]!;
            next += 1;
            const farm = `b${next}`;
            // As the command does: the owner's profile is loaded, then the farm appended.
            return stores[mode]
              .readStream(`farmer-${farmerId}`)
              .then(() => stores[mode].append(`farm-${farm}`, [farmRegistered(farm, farmerId)], 'no_stream'));
          }),
        );
      }
      creates[mode].push(FARMS / ((performance.now() - started) / 1000));
    }
  }

  const rebuilds = perMode();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const mode of MODES) {
      // A rebuild runs in a process of its own: its cache starts empty.
      const fresh = mode === 'on' ? cached() : stores[mode];
      const result = await rebuildProjections({ eventStore: fresh, db, projections: readModelProjections });
      rebuilds[mode].push(result.eventsPerSecond);
      if (fresh !== stores[mode]) await fresh.close();
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const report = (name: string, figures: Record<Mode, number[]>, unit: string) =>
    console.info(
      `${name}: ${MODES.map((mode) => `${mode} ${median(figures[mode]).toFixed(0)} ${unit}`).join(', ')}; ` +
        `ratio on/off ${(median(figures.on) / median(figures.off)).toFixed(2)}, uncached/off ${(median(figures.uncached) / median(figures.off)).toFixed(2)} ` +
        `(rounds ${MODES.map((mode) => `${mode} ${figures[mode].map((v) => v.toFixed(0)).join(', ')}`).join('; ')})`,
    );
  report('farm create (append FarmRegistered, 8 at once)', creates, 'farms/s');
  report(`full rebuild (${farmerIds.length + next} events)`, rebuilds, 'events/s');
  await sealed.close();
} finally {
  await db.destroy();
  await database.drop();
}
