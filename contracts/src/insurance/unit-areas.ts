import { DateTime, TrimmedText } from '../common';
import { z } from '../zod';
import { StationId } from './index-sources';
import { PageNumber, PageSize, queryFlag } from './pagination';

// INDEX-DATA §2.4: named areas of a source (IBLI divisions, ARC admin areas, AYII insurance units) whose
// readings are one series each. Polygons are GeoJSON (RFC 7946), checked strictly: a ring is closed and
// holds at least 4 positions, each [longitude, latitude] on Earth.

export const MAX_UNITS_PER_SOURCE = 10_000;

/** A unit's id is a location of its source, spelt like a station id (it heads a column of a wide CSV). */
export const UnitId = StationId;

const Position = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)])
  // RFC 7946 allows an altitude; it plays no part in which cells or fields a unit holds.
  .rest(z.number())
  .refine((position) => position.length <= 3, { message: 'must be [longitude, latitude] or with an altitude' });

const LinearRing = z
  .array(Position)
  .min(4, { message: 'a linear ring must hold at least 4 positions' })
  .refine(
    (ring) => {
      const first = ring[0];
      const last = ring[ring.length - 1];
      return first !== undefined && last !== undefined && first[0] === last[0] && first[1] === last[1];
    },
    { message: 'a linear ring must be closed: its last position repeats its first' },
  );

/** Its exterior ring first, then any holes. */
const PolygonRings = z.array(LinearRing).min(1, { message: 'a polygon needs its exterior ring' });

const BoundingBox = z.array(z.number()).min(4).max(6);

export const UnitPolygon = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('Polygon'), coordinates: PolygonRings, bbox: BoundingBox.optional() }),
    z.strictObject({
      type: z.literal('MultiPolygon'),
      coordinates: z.array(PolygonRings).min(1, { message: 'a multipolygon needs a polygon' }),
      bbox: BoundingBox.optional(),
    }),
  ])
  .openapi('UnitPolygon', { description: 'A GeoJSON Polygon or MultiPolygon in longitude, latitude (RFC 7946)' });
export type UnitPolygon = z.infer<typeof UnitPolygon>;

export const UnitArea = z
  .strictObject({ unit_id: UnitId, name: TrimmedText(200), polygon: UnitPolygon })
  .openapi('UnitArea');
export type UnitArea = z.infer<typeof UnitArea>;

export const UnitAreasRequest = z
  .strictObject({
    units: z
      .array(UnitArea)
      .min(1, { message: 'must hold at least one unit' })
      .max(MAX_UNITS_PER_SOURCE, { message: `must hold at most ${MAX_UNITS_PER_SOURCE} units` }),
  })
  .superRefine((request, context) => {
    const seen = new Set<string>();
    request.units.forEach((unit, at) => {
      if (seen.has(unit.unit_id)) {
        context.addIssue({ code: 'custom', path: ['units', at, 'unit_id'], message: 'repeats a unit_id' });
      }
      seen.add(unit.unit_id);
    });
  })
  .openapi('UnitAreasRequest');
export type UnitAreasRequest = z.infer<typeof UnitAreasRequest>;

/** The event, on the source's units stream: the units added by one request. */
export const UnitAreasRegistered = z
  .object({
    source_id: z.string(),
    units: z.array(z.object({ unit_id: z.string(), name: z.string(), polygon: UnitPolygon })),
    registered_by: z.string(),
    registered_at: DateTime,
  })
  .openapi('UnitAreasRegistered');
export type UnitAreasRegistered = z.infer<typeof UnitAreasRegistered>;

export const UnitAreaEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('UnitAreasRegistered'), data: UnitAreasRegistered }),
]);
export type UnitAreaEvent = z.infer<typeof UnitAreaEvent>;

/** What the route answers: how many units the source holds now, and which of the request's were new. */
export const UnitAreasRegistration = z
  .object({ source_id: z.string(), registered: z.array(z.string()), units_total: z.number().int() })
  .openapi('UnitAreasRegistration');
export type UnitAreasRegistration = z.infer<typeof UnitAreasRegistration>;

export const UnitAreasQuery = z.strictObject({ page: PageNumber, page_size: PageSize, polygons: queryFlag() });
export type UnitAreasQuery = z.infer<typeof UnitAreasQuery>;

/** A unit as the list shows it: its outline always, its polygon when asked for (`polygons=true`). */
export const UnitAreaListItem = z
  .object({
    unit_id: z.string(),
    name: z.string(),
    bbox: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .openapi({ description: '[west, south, east, north] of every position, as a GeoJSON bbox' }),
    parts: z.number().int().openapi({ description: 'Polygons in it: 1 for a Polygon' }),
    positions: z.number().int().openapi({ description: 'Positions in all its rings' }),
    cells: z.number().int().nullable().openapi({
      description:
        'Grid cells of the source the unit reads (centres inside it, or the cell of its centroid); null on a source without a grid',
    }),
    registered_at: DateTime,
    polygon: UnitPolygon.optional(),
  })
  .openapi('UnitAreaListItem');
export type UnitAreaListItem = z.infer<typeof UnitAreaListItem>;

export const UnitAreaList = z
  .object({
    source_id: z.string(),
    items: z.array(UnitAreaListItem),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('UnitAreaList');
export type UnitAreaList = z.infer<typeof UnitAreaList>;
