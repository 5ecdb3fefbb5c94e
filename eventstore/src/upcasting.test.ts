import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from './port';
import { createUpcast, type Upcaster } from './upcasting';

const recorded = (type: string, schemaVersion: number, data: unknown): RecordedEvent => ({
  type,
  data,
  streamId: 'farm-1',
  revision: 0,
  position: { commit: 1n, prepare: 1n },
  metadata: {
    event_id: '00000000-0000-4000-8000-000000000001',
    occurred_at: '2024-01-01T00:00:00.000Z',
    actor: 'u1',
    organization_id: null,
    correlation_id: 'c1',
    causation_id: null,
    schema_version: schemaVersion,
    platform_version: '0.1.0',
  },
});

// v1 had `area` in acres; v2 renamed it to `areaAcres`; v3 stores hectares.
const farmRegisteredV1toV2: Upcaster = {
  eventType: 'FarmRegistered',
  fromSchemaVersion: 1,
  upcast: (data) => {
    const { area, ...rest } = data as { area: number };
    return { ...rest, areaAcres: area };
  },
};
const farmRegisteredV2toV3: Upcaster = {
  eventType: 'FarmRegistered',
  fromSchemaVersion: 2,
  upcast: (data) => {
    const { areaAcres, ...rest } = data as { areaAcres: number };
    return { ...rest, areaHectares: Math.round(areaAcres * 0.404686 * 100) / 100 };
  },
};

describe('upcasting', () => {
  const upcast = createUpcast([farmRegisteredV2toV3, farmRegisteredV1toV2]);

  it('chains every step from the stored version and records the version reached', () => {
    const event = upcast(recorded('FarmRegistered', 1, { name: 'North', area: 100 }));
    expect(event.data).toEqual({ name: 'North', areaHectares: 40.47 });
    expect(event.metadata.schema_version).toBe(3);
    expect(event.metadata.actor).toBe('u1');
  });

  it('starts the chain at the stored version', () => {
    const event = upcast(recorded('FarmRegistered', 2, { name: 'North', areaAcres: 10 }));
    expect(event.data).toEqual({ name: 'North', areaHectares: 4.05 });
    expect(event.metadata.schema_version).toBe(3);
  });

  it('leaves current shapes and other event types untouched', () => {
    const current = recorded('FarmRegistered', 3, { name: 'North', areaHectares: 1 });
    const other = recorded('FarmerRegistered', 1, { area: 1 });
    expect(upcast(current)).toBe(current);
    expect(upcast(other)).toBe(other);
  });

  it('refuses two upcasters from the same version of one type', () => {
    expect(() => createUpcast([farmRegisteredV1toV2, { ...farmRegisteredV1toV2 }])).toThrow(/two upcasters/);
  });
});
