import type { ProgrammeEvent } from '@cropcover/contracts';
import {
  evolveProgramme,
  initialProgramme,
  type Programme,
  policyStream,
  programmeStream,
  releaseExposure,
  reserveExposure,
  updateProgramme,
} from '@cropcover/domain';
import { CHIRPS_CELL_A, policyExposure, programmeCreated, STATION_B, zoneReadBy } from '@cropcover/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { rebuildProjections } from '../rebuild';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { newEvent } from '../testing/registry-events';
import { readWholeLog } from '../testing/visible-log';
import { programmesProjection } from './programmes-projection';

const insurer = { subject: 'underwriter', organizationId: 'org-1', isAdmin: false };
const now = new Date('2026-03-01T09:00:00.000Z');

describe('programmes projection', () => {
  let t: ProjectorTestDatabase;
  let count = 0;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_programmes');
    let state: Programme = initialProgramme;
    const events: ProgrammeEvent[] = [];
    const decide = (decided: ProgrammeEvent[]) => {
      events.push(...decided);
      state = decided.reduce(evolveProgramme, state);
    };
    decide([
      programmeCreated({
        capacity: { zone_default_minor: 50_000_000, zones: [{ ...CHIRPS_CELL_A, capacity_minor: 100_000_000 }] },
      }),
    ]);
    const reserve = (exposure: ReturnType<typeof policyExposure>) =>
      decide(reserveExposure({ actor: insurer, programmeId: 'prog-1', exposure, now }, state));
    reserve(policyExposure('p-1', 10_000_000, [zoneReadBy(CHIRPS_CELL_A, ['drought'], 500)]));
    reserve(policyExposure('p-2', 20_000_000, [zoneReadBy(CHIRPS_CELL_A, ['drought', 'flood'], 700)]));
    reserve(
      policyExposure('p-3', 30_000_000, [
        zoneReadBy(CHIRPS_CELL_A, ['drought'], 900),
        zoneReadBy(STATION_B, ['storm'], 300),
      ]),
    );
    decide(releaseExposure({ policyId: 'p-1', reason: 'lapsed', now }, state));
    decide(
      updateProgramme(
        {
          actor: insurer,
          request: {
            capacity: { zone_default: 400_000, zone_perils: [{ ...STATION_B, peril: 'storm', capacity: 600_000 }] },
          },
          now,
        },
        state,
      ),
    );
    const toNew = (event: ProgrammeEvent) => newEvent(event.type, event.data);
    // The first half in one append, the second in another: batches meet programmes already projected.
    await t.eventStore.append(programmeStream('prog-1'), events.slice(0, 3).map(toNew), 'no_stream');
    await t.eventStore.append(programmeStream('prog-1'), events.slice(3).map(toNew), 2);
    await t.eventStore.append(
      policyStream('p-2'),
      [
        newEvent('PayoutApproved', {
          policy_id: 'p-2',
          payout_id: 'payout-1',
          evaluation_id: 'eval-1',
          peril: 'flood',
          severity: 0.25,
          amount_minor: 5_000_000,
          currency: 'KES',
          approved_at: now.toISOString(),
        }),
      ],
      'any',
    );
    count = events.length + 1;
  });
  afterAll(() => t?.close());

  const dump = async () => ({
    programmes: await t.db.selectFrom('programmes').selectAll().execute(),
    capacities: await t.db
      .selectFrom('programme_capacities')
      .selectAll()
      .orderBy('source_id')
      .orderBy('peril')
      .execute(),
    zones: await t.db.selectFrom('programme_zone_exposure').selectAll().orderBy('source_id').execute(),
    zonePerils: await t.db
      .selectFrom('programme_zone_peril_exposure')
      .selectAll()
      .orderBy('source_id')
      .orderBy('peril')
      .execute(),
    policies: await t.db.selectFrom('programme_policies').selectAll().orderBy('policy_id').execute(),
  });

  it('shows each zone’s exposure once per policy, with the capacity in force and its utilisation', async () => {
    const log = await readWholeLog(t.eventStore, count);
    // In two batches, the second starting inside the programme's stream.
    await applyBatch(t.db, programmesProjection, log.slice(0, 2));
    await applyBatch(t.db, programmesProjection, log.slice(2));
    const { programmes, zones, zonePerils, policies, capacities } = await dump();
    expect(programmes).toMatchObject([
      {
        programme_id: 'prog-1',
        policies: 2,
        sum_insured_minor: 50_000_000n,
        premium_minor: 2_600n,
        zone_default_minor: 40_000_000n,
        stream_revision: 5,
      },
    ]);
    expect(capacities.map(({ source_id, peril, capacity_minor }) => [source_id, peril, capacity_minor])).toEqual([
      ['chirps', '', 100_000_000n],
      ['kmd-stations', 'storm', 60_000_000n],
    ]);
    expect(
      zones.map(({ source_id, policies, sum_insured_minor, premium_minor, capacity_minor, utilisation }) => [
        source_id,
        policies,
        sum_insured_minor,
        premium_minor,
        capacity_minor,
        utilisation,
      ]),
    ).toEqual([
      ['chirps', 2, 50_000_000n, 2_300n, 100_000_000n, '0.500000'],
      ['kmd-stations', 1, 30_000_000n, 300n, 40_000_000n, '0.750000'],
    ]);
    expect(
      zonePerils.map(({ source_id, peril, policies, sum_insured_minor, capacity_minor, utilisation }) => [
        source_id,
        peril,
        policies,
        sum_insured_minor,
        capacity_minor,
        utilisation,
      ]),
    ).toEqual([
      ['chirps', 'drought', 2, 50_000_000n, null, null],
      ['chirps', 'flood', 1, 20_000_000n, null, null],
      ['kmd-stations', 'storm', 1, 30_000_000n, 60_000_000n, '0.500000'],
    ]);
    expect(
      policies.map(({ policy_id, claims_minor, released_reason }) => [policy_id, claims_minor, released_reason]),
    ).toEqual([
      ['p-1', 0n, 'lapsed'],
      ['p-2', 5_000_000n, null],
      ['p-3', 0n, null],
    ]);
  });

  it('changes nothing when the log is applied again, and rebuilds to the same rows', async () => {
    const before = await dump();
    await applyBatch(t.db, programmesProjection, await readWholeLog(t.eventStore, count));
    expect(await dump()).toEqual(before);
    await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [programmesProjection] });
    expect(await dump()).toEqual(before);
  });
});
