import { DateTime, TrimmedText } from '../common';
import { z } from '../zod';
import { FrozenClimatology } from './climatologies';
import { PageNumber, PageSize } from './pagination';
import { Peril, ReadingIndex } from './peril';
import {
  Cadence,
  checkSourceDescriptors,
  ModelDescriptor,
  ProductDescriptor,
  Sampling,
  SourceDescriptorFields,
  SourceUnit,
} from './source-descriptors';

// SPEC §7 "Index data": a source is registered data of one index, owned by the organization that
// registered it. Only that organization's data providers (or an admin) write its readings.

export const IndexSourceKind = z.enum(['station', 'grid', 'field']).openapi('IndexSourceKind');
export type IndexSourceKind = z.infer<typeof IndexSourceKind>;

export const StationId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { message: 'must be 1-64 letters, digits, _, . or -' });

export const Station = z
  .strictObject({
    station_id: StationId,
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
  })
  .openapi('Station');
export type Station = z.infer<typeof Station>;

export const MAX_STATIONS_PER_SOURCE = 10_000;

/** Decimal places a grid resolution may have: 0.05° (CHIRPS) needs 2, 0.000001° is ~0.1 m. */
export const GRID_RESOLUTION_PLACES = 6;

/** A grid's cell size in degrees. Cells tile the globe from (−90, −180), so the size must divide 180 exactly
 *  (then it divides 360 too): checked on the decimal text in millionths, never on binary fractions. */
export const GridResolution = z
  .number()
  .positive()
  .max(90)
  .superRefine((degrees, context) => {
    const text = degrees.toString();
    const [, fraction = ''] = text.split('.');
    if (text.includes('e') || fraction.length > GRID_RESOLUTION_PLACES) {
      context.addIssue({ code: 'custom', message: `must have at most ${GRID_RESOLUTION_PLACES} decimal places` });
      return;
    }
    const millionths = Math.round(degrees * 10 ** GRID_RESOLUTION_PLACES);
    if ((180 * 10 ** GRID_RESOLUTION_PLACES) % millionths !== 0) {
      context.addIssue({ code: 'custom', message: 'must divide 180 degrees into whole cells' });
    }
  });

/** How far from a station a field may be and still be read from it, by default. */
export const DEFAULT_STATION_RADIUS_KM = 25;

const SourceCommon = {
  name: TrimmedText(200),
  index: ReadingIndex,
  ...SourceDescriptorFields,
};

export const IndexSourceRegisterRequest = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('station'),
      ...SourceCommon,
      stations: z
        .array(Station)
        .min(1, { message: 'must hold at least one station' })
        .max(MAX_STATIONS_PER_SOURCE, { message: `must hold at most ${MAX_STATIONS_PER_SOURCE} stations` }),
      /** A field further than this from every station is not covered by the source. */
      radius_km: z.number().positive().max(1000).default(DEFAULT_STATION_RADIUS_KM),
    }),
    z.strictObject({
      kind: z.literal('grid'),
      ...SourceCommon,
      resolution_deg: GridResolution,
      sampling: Sampling.optional(),
    }),
    z.strictObject({ kind: z.literal('field'), ...SourceCommon }),
  ])
  .superRefine((request, context) => {
    checkSourceDescriptors(request, context);
    if (request.kind !== 'station') return;
    const seen = new Set<string>();
    request.stations.forEach((station, at) => {
      if (seen.has(station.station_id)) {
        context.addIssue({ code: 'custom', path: ['stations', at, 'station_id'], message: 'repeats a station_id' });
      }
      seen.add(station.station_id);
    });
  })
  .openapi('IndexSourceRegisterRequest');
export type IndexSourceRegisterRequest = z.infer<typeof IndexSourceRegisterRequest>;

/** The event: everything a policy resolving its location needs, frozen as registered. */
export const IndexSourceRegistered = z
  .object({
    source_id: z.string(),
    organization_id: z.string(),
    name: z.string(),
    index: ReadingIndex,
    kind: IndexSourceKind,
    /** Station sources only, else null. */
    stations: z.array(Station).nullable(),
    radius_km: z.number().nullable(),
    /** Grid sources only, else null. */
    resolution_deg: z.number().nullable(),
    /** INDEX-DATA.md §1, each absent from sources registered before them (and when not given). */
    unit: SourceUnit.optional(),
    currency: z.string().optional(),
    cadence: Cadence.optional(),
    sampling: Sampling.optional(),
    product: ProductDescriptor.optional(),
    model: ModelDescriptor.optional(),
    registered_by: z.string(),
    registered_at: DateTime,
  })
  .openapi('IndexSourceRegistered');
export type IndexSourceRegistered = z.infer<typeof IndexSourceRegistered>;

export const IndexSourceEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('IndexSourceRegistered'), data: IndexSourceRegistered }),
]);
export type IndexSourceEvent = z.infer<typeof IndexSourceEvent>;

/** A source as every authenticated organization reads it. */
export const IndexSource = z
  .object({
    source_id: z.string(),
    organization_id: z.string(),
    name: z.string(),
    index: ReadingIndex,
    kind: IndexSourceKind,
    /** Station sources only, else null (optional fields are present with null, as everywhere). */
    stations: z.array(Station).nullable(),
    radius_km: z.number().nullable(),
    /** Grid sources only, else null. */
    resolution_deg: z.number().nullable(),
    /** Null: the unit of the index name, with its bounds. */
    unit: SourceUnit.nullable(),
    currency: z.string().nullable(),
    cadence: Cadence,
    /** Grid sources: how a location reads the grid; `cell` for other kinds. */
    sampling: Sampling,
    product: ProductDescriptor.nullable(),
    model: ModelDescriptor.nullable(),
    registered_at: DateTime,
  })
  .openapi('IndexSource');
export type IndexSource = z.infer<typeof IndexSource>;

export const IndexSourceList = z
  .object({
    items: z.array(IndexSource),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('IndexSourceList');
export type IndexSourceList = z.infer<typeof IndexSourceList>;

export const IndexSourcesQuery = z.strictObject({
  index: ReadingIndex.optional(),
  kind: IndexSourceKind.optional(),
  organization_id: z.string().min(1).max(200).optional(),
  page: PageNumber,
  page_size: PageSize,
});
export type IndexSourcesQuery = z.infer<typeof IndexSourcesQuery>;

/** Any id up to 100 characters: an unknown one is a 404 like every other resource's, never a 400. */
export const IndexSourcePathParams = z.strictObject({ source_id: z.string().min(1).max(100) });

export const IndexSourceId = z.string().uuid().openapi({ description: 'a registered index source' });

/** The source a quote or issue names per peril; a peril left out takes the deployment's default for its
 *  index, else the policy organization's own field readings. */
export const DataSourceChoice = z
  .strictObject(
    Object.fromEntries(Peril.options.map((peril) => [peril, IndexSourceId.optional()])) as Record<
      Peril,
      z.ZodOptional<typeof IndexSourceId>
    >,
  )
  .openapi('DataSourceChoice');
export type DataSourceChoice = z.infer<typeof DataSourceChoice>;

/** The data one peril of a policy reads, resolved and frozen at issue. `location` is the station id, the
 *  grid cell (`"lat,lon"` of its south-west corner) or the field (`"farm_id/field_id"`). */
/** How a location of a `bilinear` or `unit_mean` grid source reads its cells, frozen with the policy so
 *  it replays without the source: the field's point and the grid's resolution (its four neighbours and
 *  their weights follow), or the unit's cells (equal weights). Absent: the location is one series. */
export const LocationSampling = z
  .discriminatedUnion('method', [
    z.object({
      method: z.literal('bilinear'),
      point: z.object({ lat: z.number(), lon: z.number() }),
      resolution_deg: z.number(),
    }),
    z.object({ method: z.literal('unit_mean'), cells: z.array(z.string()) }),
  ])
  .openapi('LocationSampling');
export type LocationSampling = z.infer<typeof LocationSampling>;

export const PerilDataSource = z
  .object({
    source_id: z.string(),
    kind: IndexSourceKind,
    index: ReadingIndex,
    location: z.string(),
    /** Station sources: how far the field is from the station, in km. */
    distance_km: z.number().optional(),
    sampling: LocationSampling.optional(),
    /** What the source's data is, in what unit, per what period (INDEX-DATA §4), as registered when the
     *  policy was issued; absent: none named, the index's own unit, daily. Nullable as the source's own
     *  fields are: the OpenAPI generator renders a component once, nullable or not, for every use. */
    product: ProductDescriptor.nullable().optional(),
    unit: SourceUnit.nullable().optional(),
    cadence: Cadence.nullable().optional(),
    /** The model behind a modelled index (INDEX-DATA §4), as registered when the policy was issued. */
    model: ModelDescriptor.nullable().optional(),
    /** The climatology the cover's blocks read against, frozen at issue with the location's numbers. */
    climatology: FrozenClimatology.optional(),
  })
  .openapi('PerilDataSource');
export type PerilDataSource = z.infer<typeof PerilDataSource>;

/** Who registers a source and how its locations are found, as the API reference tells it. */
export const INDEX_SOURCE_RULES =
  'Roles data_provider or admin. Only the owning organization writes its readings. A grid resolution must ' +
  'divide 180° into whole cells (at most 6 decimals); cells tile from (−90, −180) and a point on an edge ' +
  'belongs to the cell north or east of it. A field reads the nearest station within radius_km ' +
  '(default 25), ties to the smaller station_id.';
