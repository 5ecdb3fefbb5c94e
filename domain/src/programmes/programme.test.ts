import type { ProgrammeEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error';
import { evolvePolicy, type IssuedPolicy, initialPolicy } from '../policies/policy';
import { admin } from '../testing/actors';
import { deciderSpec } from '../testing/decider-spec';
import { insurer, otherInsurer } from '../testing/insured-farm';
import { policyIssuedEvents } from '../testing/issued-policy';
import {
  CHIRPS_CELL_A,
  CHIRPS_CELL_B,
  exposureReserved,
  policyExposure,
  programmeCreated,
  STATION_B,
  zoneReadBy,
} from '../testing/programmes';
import { exposureOfPolicy, zoneKey, zonePerilKey } from './accumulation-zone';
import { createProgramme } from './create-programme';
import { defaultProgrammeId } from './default-programme';
import { evolveProgramme, initialProgramme, type OpenProgramme } from './programme';
import { releaseExposure } from './release-exposure';
import { type ReserveExposure, reserveExposure } from './reserve-exposure';
import { updateProgramme } from './update-programme';

const now = new Date('2026-03-01T09:00:00.000Z');
const stateAfter = (events: readonly ProgrammeEvent[]) =>
  events.reduce(evolveProgramme, initialProgramme) as OpenProgramme;
const reserving = deciderSpec(initialProgramme, evolveProgramme, reserveExposure);
const refusalOf = (decide: () => unknown): DomainError => {
  try {
    decide();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('not refused');
};

// KES: 100 minor units to the shilling.
const KES = (major: number) => major * 100;
const zoneCapacityOf5M = programmeCreated({
  capacity: { zones: [{ ...CHIRPS_CELL_A, capacity_minor: KES(5_000_000) }] },
});
const committed4_8M = [
  exposureReserved(policyExposure('p-1', KES(3_000_000))),
  exposureReserved(policyExposure('p-2', KES(1_800_000))),
];
const reserve = (exposure: ReserveExposure['exposure'], programmeId = 'prog-1'): ReserveExposure => ({
  actor: insurer,
  programmeId,
  exposure,
  now,
});

describe('creating a programme', () => {
  const create = deciderSpec(initialProgramme, evolveProgramme, createProgramme);

  it('records its limits in minor units of its currency', () => {
    create
      .given([])
      .when({
        actor: insurer,
        programmeId: 'prog-1',
        request: {
          name: 'Long rains 2026',
          currency: 'KES',
          aggregate_limit: 100_000_000,
          capacity: { zone_default: 2_000_000.5, zone_perils: [{ ...CHIRPS_CELL_A, peril: 'drought', capacity: 10 }] },
        },
        now,
      })
      .thenEvents([
        {
          type: 'ProgrammeCreated',
          data: {
            programme_id: 'prog-1',
            organization_id: 'org-1',
            name: 'Long rains 2026',
            currency: 'KES',
            is_default: false,
            aggregate_limit_minor: 10_000_000_000,
            capacity: {
              zone_default_minor: 200_000_050,
              zones: [],
              zone_perils: [{ ...CHIRPS_CELL_A, peril: 'drought', capacity_minor: 1_000 }],
            },
            created_at: now.toISOString(),
          },
        },
      ]);
  });

  it('needs an organization, and a new id', () => {
    const request = { name: 'B', currency: 'KES' };
    create
      .given([])
      .when({ actor: { ...insurer, organizationId: null }, programmeId: 'prog-1', request, now })
      .thenRefuses('forbidden', 'organization_required');
    create
      .given([programmeCreated()])
      .when({ actor: insurer, programmeId: 'prog-1', request, now })
      .thenRefuses('conflict', 'programme_exists');
  });
});

describe('the binding check (acceptance test 1)', () => {
  it('refuses 300,000 against 200,000 available, with the numbers, and decides nothing', () => {
    const error = refusalOf(() =>
      reserveExposure(reserve(policyExposure('p-3', KES(300_000))), stateAfter([zoneCapacityOf5M, ...committed4_8M])),
    );
    expect(error).toMatchObject({ reason: 'rejected', code: 'capacity_exceeded' });
    expect(error.errors).toEqual([
      {
        path: 'sum_insured',
        message: 'zone chirps -1.30,36.80: capacity 5000000, committed 4800000, requested 300000, available 200000 KES',
        limit: 'zone',
        source_id: 'chirps',
        location: '-1.30,36.80',
        capacity: 5_000_000,
        committed: 4_800_000,
        requested: 300_000,
        available: 200_000,
      },
    ]);
  });

  it('writes 200,000 exactly up to the capacity: equality is allowed, and nothing is left', () => {
    const events = reserveExposure(
      reserve(policyExposure('p-3', KES(200_000))),
      stateAfter([zoneCapacityOf5M, ...committed4_8M]),
    );
    expect(events.map((event) => event.type)).toEqual(['ExposureReserved']);
    const after = stateAfter([zoneCapacityOf5M, ...committed4_8M, ...events]);
    expect(after.committed.zones.get(zoneKey(CHIRPS_CELL_A))).toBe(KES(5_000_000));
    const full = refusalOf(() => reserveExposure(reserve(policyExposure('p-4', 1)), after));
    expect(full.errors).toMatchObject([{ capacity: 5_000_000, committed: 5_000_000, requested: 0.01, available: 0 }]);
  });

  it('names one entry per limit passed: the zone, the (zone, peril) and the aggregate', () => {
    const state = stateAfter([
      programmeCreated({
        aggregateLimitMinor: KES(1_000_000),
        capacity: {
          zone_default_minor: KES(500_000),
          zone_perils: [{ ...STATION_B, peril: 'storm', capacity_minor: KES(100_000) }],
        },
      }),
      exposureReserved(policyExposure('p-1', KES(900_000), [zoneReadBy(CHIRPS_CELL_B, ['flood'])])),
    ]);
    const error = refusalOf(() =>
      reserveExposure(
        reserve(
          policyExposure('p-2', KES(600_000), [
            zoneReadBy(CHIRPS_CELL_A, ['drought']),
            zoneReadBy(STATION_B, ['storm']),
          ]),
        ),
        state,
      ),
    );
    expect(
      error.errors?.map(({ limit, source_id, peril, capacity, committed, available }) => ({
        limit,
        source_id,
        peril,
        capacity,
        committed,
        available,
      })),
    ).toEqual([
      { limit: 'zone', source_id: 'chirps', peril: undefined, capacity: 500_000, committed: 0, available: 500_000 },
      {
        limit: 'zone',
        source_id: 'kmd-stations',
        peril: undefined,
        capacity: 500_000,
        committed: 0,
        available: 500_000,
      },
      {
        limit: 'zone_peril',
        source_id: 'kmd-stations',
        peril: 'storm',
        capacity: 100_000,
        committed: 0,
        available: 100_000,
      },
      {
        limit: 'programme_aggregate',
        source_id: undefined,
        peril: undefined,
        capacity: 1_000_000,
        committed: 900_000,
        available: 100_000,
      },
    ]);
  });

  it('refuses a programme of another currency, and hides another organization’s programme', () => {
    reserving
      .given([programmeCreated()])
      .when(reserve(policyExposure('p-1', 100, undefined, { currency: 'USD' })))
      .thenRefuses('rejected', 'currency_mismatch');
    reserving
      .given([programmeCreated()])
      .when({ ...reserve(policyExposure('p-1', 100, undefined, { organizationId: 'org-2' })), actor: otherInsurer })
      .thenRefuses('not_found', 'programme_not_found');
    reserving
      .given([])
      .when(reserve(policyExposure('p-1', 100)))
      .thenRefuses('not_found', 'programme_not_found');
  });

  it('reserves a policy once: a second reservation of it decides nothing', () => {
    reserving
      .given([programmeCreated(), exposureReserved(policyExposure('p-1', 100))])
      .when(reserve(policyExposure('p-1', 100)))
      .thenEvents([]);
  });
});

describe('the default programme', () => {
  it('is created, without limits, by the first reservation of its organization and currency', () => {
    const programmeId = defaultProgrammeId('org-1', 'KES');
    const events = reserveExposure(reserve(policyExposure('p-1', KES(10_000_000_000)), programmeId), initialProgramme);
    expect(events).toMatchObject([
      {
        type: 'ProgrammeCreated',
        data: { programme_id: programmeId, name: 'default', is_default: true, aggregate_limit_minor: null },
      },
      { type: 'ExposureReserved', data: { programme_id: programmeId, policy_id: 'p-1' } },
    ]);
    expect(defaultProgrammeId('org-1', 'USD')).not.toBe(programmeId);
    expect(defaultProgrammeId('org-2', 'KES')).not.toBe(programmeId);
  });

  it('takes limits before anything is written to it, creating it; no other id, nor another organization', () => {
    const programmeId = defaultProgrammeId('org-1', 'RWF');
    const request = { capacity: { zone_default: 5_000_000 } };
    expect(updateProgramme({ actor: insurer, programmeId, request, now }, initialProgramme)).toMatchObject([
      { type: 'ProgrammeCreated', data: { programme_id: programmeId, currency: 'RWF', is_default: true } },
      { type: 'ProgrammeUpdated', data: { programme_id: programmeId, capacity: { zone_default_minor: 5_000_000 } } },
    ]);
    const patching = deciderSpec(initialProgramme, evolveProgramme, updateProgramme);
    patching
      .given([])
      .when({ actor: otherInsurer, programmeId, request, now })
      .thenRefuses('not_found', 'programme_not_found');
    patching
      .given([])
      .when({ actor: insurer, programmeId: 'prog-unknown', request, now })
      .thenRefuses('not_found', 'programme_not_found');
  });
});

describe('exposure counted once per zone (acceptance test 3)', () => {
  it('adds S to cell A, to station B and once to the aggregate — not twice', () => {
    const exposure = policyExposure('p-1', KES(100_000), [
      zoneReadBy(CHIRPS_CELL_A, ['drought']),
      zoneReadBy(STATION_B, ['storm']),
    ]);
    const state = stateAfter([
      programmeCreated(),
      ...reserveExposure(reserve(exposure), stateAfter([programmeCreated()])),
    ]);
    expect(state.committed.zones.get(zoneKey(CHIRPS_CELL_A))).toBe(KES(100_000));
    expect(state.committed.zones.get(zoneKey(STATION_B))).toBe(KES(100_000));
    expect(state.committed.aggregateMinor).toBe(KES(100_000));
  });

  it('counts two perils reading one zone once in the zone and once in each (zone, peril)', () => {
    const exposure = policyExposure('p-1', KES(100_000), [zoneReadBy(CHIRPS_CELL_A, ['drought', 'flood'])]);
    const state = stateAfter([programmeCreated(), exposureReserved(exposure)]);
    expect(state.committed.zones.get(zoneKey(CHIRPS_CELL_A))).toBe(KES(100_000));
    expect(state.committed.zonePerils.get(zonePerilKey(CHIRPS_CELL_A, 'drought'))).toBe(KES(100_000));
    expect(state.committed.zonePerils.get(zonePerilKey(CHIRPS_CELL_A, 'flood'))).toBe(KES(100_000));
  });

  it('reads a policy’s zones from the data frozen in its PolicyIssued, each once', () => {
    const policy = evolvePolicy(
      initialPolicy,
      policyIssuedEvents({ perils: ['drought', 'flood'] })[0]!,
    ) as IssuedPolicy;
    const exposure = exposureOfPolicy(policy);
    expect(exposure).toMatchObject({
      policyId: 'p',
      organizationId: 'org-1',
      currency: 'KES',
      sumInsuredMinor: 25_000_000,
    });
    expect(exposure.zones).toEqual([
      {
        source_id: 'organization-fields:org-1',
        location: 'farm-1/north',
        perils: policy.issued.pricing.map(({ peril, premium_minor }) => ({ peril, premium_minor })),
      },
    ]);
  });
});

describe('release (acceptance test 4)', () => {
  const releasing = deciderSpec(initialProgramme, evolveProgramme, releaseExposure);
  const reserved = exposureReserved(policyExposure('p-1', KES(100_000)));

  it('a lapse gives the whole reservation back', () => {
    const { zones } = policyExposure('p-1', KES(100_000));
    releasing
      .given([programmeCreated(), reserved])
      .when({ policyId: 'p-1', reason: 'lapsed', now })
      .thenEvents([
        {
          type: 'ExposureReleased',
          data: {
            programme_id: 'prog-1',
            policy_id: 'p-1',
            sum_insured_minor: KES(100_000),
            premium_minor: 1_000,
            zones: [...zones],
            reason: 'lapsed',
            released_at: now.toISOString(),
          },
        },
      ]);
  });

  it('commits S until the close, whatever was paid, then nothing; releasing again changes nothing', () => {
    const events = [programmeCreated(), reserved];
    expect(stateAfter(events).committed.aggregateMinor).toBe(KES(100_000));
    const closed = [...events, ...releaseExposure({ policyId: 'p-1', reason: 'closed', now }, stateAfter(events))];
    const state = stateAfter(closed);
    expect(state.committed.aggregateMinor).toBe(0);
    expect(state.committed.zones.size).toBe(0);
    expect(state.reservations.has('p-1')).toBe(false);
    releasing.given(closed).when({ policyId: 'p-1', reason: 'closed', now }).thenEvents([]);
    releasing
      .given([programmeCreated()])
      .when({ policyId: 'issued-before-programmes', reason: 'lapsed', now })
      .thenEvents([]);
  });
});

describe('changing limits (acceptance test 5)', () => {
  const updating = deciderSpec(initialProgramme, evolveProgramme, updateProgramme);

  it('refuses a zone capacity lowered to 4,000,000 under 4,800,000 committed, with the numbers', () => {
    const error = refusalOf(() =>
      updateProgramme(
        { actor: insurer, request: { capacity: { zones: [{ ...CHIRPS_CELL_A, capacity: 4_000_000 }] } }, now },
        stateAfter([zoneCapacityOf5M, ...committed4_8M]),
      ),
    );
    expect(error).toMatchObject({ reason: 'rejected', code: 'capacity_below_committed' });
    expect(error.errors).toEqual([
      {
        path: 'capacity',
        message: 'zone chirps -1.30,36.80: capacity 4000000 is below the 4800000 KES already committed',
        limit: 'zone',
        source_id: 'chirps',
        location: '-1.30,36.80',
        capacity: 4_000_000,
        committed: 4_800_000,
      },
    ]);
  });

  it('lowers to exactly what is committed, and null removes a limit', () => {
    updating
      .given([zoneCapacityOf5M, ...committed4_8M])
      .when({
        actor: insurer,
        request: { aggregate_limit: 4_800_000, capacity: { zones: [{ ...CHIRPS_CELL_A, capacity: null }] } },
        now,
      })
      .thenEvents([
        {
          type: 'ProgrammeUpdated',
          data: {
            programme_id: 'prog-1',
            aggregate_limit_minor: KES(4_800_000),
            capacity: { zones: [{ ...CHIRPS_CELL_A, capacity_minor: null }] },
            updated_at: now.toISOString(),
          },
        },
      ]);
    const state = stateAfter([
      zoneCapacityOf5M,
      ...updateProgramme(
        { actor: insurer, request: { capacity: { zones: [{ ...CHIRPS_CELL_A, capacity: null }] } }, now },
        stateAfter([zoneCapacityOf5M]),
      ),
    ]);
    expect(state.limits.zones.size).toBe(0);
  });

  it('checks a lowered default against every zone falling back to it, and the aggregate', () => {
    const error = refusalOf(() =>
      updateProgramme(
        { actor: admin, request: { aggregate_limit: 1, capacity: { zone_default: 1_000_000 } }, now },
        stateAfter([programmeCreated(), ...committed4_8M]),
      ),
    );
    expect(error.errors?.map((entry) => [entry.limit, entry.capacity, entry.committed])).toEqual([
      ['zone', 1_000_000, 4_800_000],
      ['programme_aggregate', 1, 4_800_000],
    ]);
  });

  it('refuses amounts finer than the currency, and another organization', () => {
    const error = refusalOf(() =>
      updateProgramme({ actor: insurer, request: { aggregate_limit: 1.005 }, now }, stateAfter([programmeCreated()])),
    );
    expect(error).toMatchObject({
      code: 'invalid_amount',
      errors: [{ path: 'aggregate_limit', message: 'has more decimals than KES allows' }],
    });
    updating
      .given([programmeCreated()])
      .when({ actor: otherInsurer, request: { aggregate_limit: 1 }, now })
      .thenRefuses('not_found', 'programme_not_found');
  });
});
