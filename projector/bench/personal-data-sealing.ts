import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { cachedFarmerKeys, farmerKeysIn, withSealedPersonalData } from '@cropcover/application';
import { createEventStore, type EventStore, migrateEventStore, type NewEvent } from '@cropcover/eventstore';
import { readModelProjections, rebuildProjections } from '@cropcover/projector';
import { policyStory } from '@cropcover/projector/testing';
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
// BENCH_LOG=mixed adds what a farmer's farm then carries as the service writes it (two fields, a policy
// and its evaluations, which open nothing but the policy's frozen farm name) to the farmer-and-farm log,
// the worst case; BENCH_CREATES=0 appends the farms untimed (the rebuild alone); BENCH_PROFILE=1 writes a
// CPU profile of the on and off rebuild rounds each (sealing-rebuild-<mode>-<time>.cpuprofile).

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const FARMS = Number(process.env.BENCH_FARMS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MIXED = process.env.BENCH_LOG === 'mixed';
const CREATES = process.env.BENCH_CREATES !== '0';
const PROFILE = process.env.BENCH_PROFILE === '1';
const EVALUATIONS = 6;
const MODES = ['on', 'warm', 'uncached', 'off'] as const;
type Mode = (typeof MODES)[number];
const perMode = (): Record<Mode, number[]> => ({ on: [], warm: [], uncached: [], off: [] });

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

/** A farm's fields, and a policy on it evaluated through its term: no breach, so no payout. */
const farmLife = (farmId: string, farmerId: string, index: number) => {
  const fields = ['north', 'south'].map((fieldId) => ({
    type: 'FieldRegistered',
    data: {
      farm_id: farmId,
      field_id: fieldId,
      name: `Field ${fieldId}`,
      area_ha: 1.5,
      location: { lat: -1.2, lon: 36.8 },
      crop_type: 'maize',
      registered_at: new Date().toISOString(),
    },
    metadata: metadata(),
  }));
  const story = policyStory({
    policyId: `p-${farmId}`,
    organizationId: 'org-bench',
    farmId,
    fieldId: 'north',
    perils: ['flood'],
    termStart: '2026-04-01',
    termEnd: '2026-09-30',
    issuedAt: '2026-03-28T08:00:00.000Z',
  });
  for (let day = 1; day <= EVALUATIONS; day += 1)
    story.evaluate(
      { flood: [{ date: `2026-04-${String(day).padStart(2, '0')}`, value: 5 + (index % 7), revision: 1 }] },
      `2026-04-${String(day + 1).padStart(2, '0')}T06:00:00.000Z`,
    );
  // The story's farm is the domain's test farm; the policy is this farmer's.
  const policy = story.takeNew().map((event) => {
    const data = event.data as Record<string, unknown>;
    return 'owner_farmer_id' in data ? { ...event, data: { ...data, owner_farmer_id: farmerId } } : event;
  });
  return { fields, policyStream: story.streamId, policy };
};

const profiling = async (): Promise<Session> => {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return session;
};

console.info(
  `load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}`,
);
const database = await createTestDatabase('bench_sealing');
const pool = createPool(database.url, createLogger({ level: 'silent' }));
const db = createKysely<ReadModels>(pool);
try {
  await migrateEventStore(pool);
  await migrateReadModels(db);
  const bare = createEventStore({ eventstoreUrl: undefined, pool });
  const keys = () => farmerKeysIn(db, [{ id: 'bench', key: Buffer.alloc(32, 1) }]);
  const logger = createLogger({ level: 'silent' });
  // "on" as processes run it (keys cached per process), the owner's key not yet held; "warm": the same store
  // with the owner's key held (their profile read earlier in this process, untimed); "uncached" as before
  // the cache (issue 25's first figures).
  const cached = () =>
    withSealedPersonalData(
      bare,
      cachedFarmerKeys(keys(), (watcher) => listenToFarmerKeyErasures(pool, logger, watcher)),
    );
  const sealed = cached();
  const stores: Record<Mode, EventStore> = {
    on: sealed,
    warm: sealed,
    uncached: withSealedPersonalData(bare, keys()),
    off: bare,
  };

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
  const eightAtOnce = async (count: number, append: (index: number) => Promise<unknown>) => {
    for (let start = 0; start < count; start += 8)
      await Promise.all(Array.from({ length: Math.min(8, count - start) }, (_, offset) => append(start + offset)));
  };
  if (!CREATES) {
    await eightAtOnce(farmerIds.length, (index) =>
      stores.uncached.append(`farm-b${index + 1}`, [farmRegistered(`b${index + 1}`, farmerIds[index]!)], 'no_stream'),
    );
    next = farmerIds.length;
  }
  for (let round = 0; CREATES && round < ROUNDS; round += 1) {
    for (const mode of MODES) {
      if (mode === 'warm')
        for (const farmerId of farmerIds.slice(next, next + FARMS)) await sealed.readStream(`farmer-${farmerId}`);
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

  if (MIXED)
    await eightAtOnce(next, async (index) => {
      const farm = `b${index + 1}`;
      const life = farmLife(farm, farmerIds[index]!, index);
      await stores.uncached.append(`farm-${farm}`, life.fields, 0);
      await stores.uncached.append(life.policyStream, life.policy, 'no_stream');
    });
  const { rows: mix } = await pool.query<{ event_type: string; count: string }>(
    'select event_type, count(*)::text as count from events group by event_type order by count(*) desc',
  );
  console.info(`log: ${mix.map((row) => `${row.event_type} ${row.count}`).join(', ')}`);

  const rebuilds = perMode();
  // CPU time of this process per event: steadier than rates on a shared machine.
  const rebuildCpu = perMode();
  let events = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const mode of MODES) {
      if (mode === 'warm' || (!CREATES && mode === 'uncached')) continue;
      // A rebuild runs in a process of its own: its cache starts empty.
      const fresh = mode === 'on' ? cached() : stores[mode];
      const profile = PROFILE && (mode === 'on' || mode === 'off') ? await profiling() : undefined;
      const cpu = process.cpuUsage();
      const result = await rebuildProjections({ eventStore: fresh, db, projections: readModelProjections });
      const used = process.cpuUsage(cpu);
      rebuildCpu[mode].push((used.user + used.system) / result.events);
      if (profile)
        await profile
          .post('Profiler.stop')
          .then(({ profile: taken }) =>
            writeFile(`sealing-rebuild-${mode}-${round}-${Date.now()}.cpuprofile`, JSON.stringify(taken)),
          );
      events = result.events;
      rebuilds[mode].push(result.eventsPerSecond);
      if (fresh !== stores[mode]) await fresh.close();
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const report = (name: string, figures: Record<Mode, number[]>, unit: string) => {
    const measured = MODES.filter((mode) => figures[mode].length > 0);
    const ratio = (mode: Mode) => `${mode}/off ${(median(figures[mode]) / median(figures.off)).toFixed(2)}`;
    console.info(
      `${name}: ${measured.map((mode) => `${mode} ${median(figures[mode]).toFixed(0)} ${unit}`).join(', ')}; ` +
        `ratio ${measured
          .filter((mode) => mode !== 'off')
          .map(ratio)
          .join(', ')} ` +
        `(rounds ${measured.map((mode) => `${mode} ${figures[mode].map((v) => v.toFixed(0)).join(', ')}`).join('; ')})`,
    );
  };
  if (CREATES) report('farm create (load the owner, append FarmRegistered; 8 at once)', creates, 'farms/s');
  console.info(
    `load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  report(`full rebuild (${events} events)`, rebuilds, 'events/s');
  report('  its CPU in this process', rebuildCpu, 'µs/event');
  await sealed.close();
} finally {
  await db.destroy();
  await database.drop();
}
