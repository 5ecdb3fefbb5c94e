import { DateTime, TrimmedText } from '../common';
import { z } from '../zod';

export const GeoPoint = z
  .strictObject({
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
  })
  .openapi('GeoPoint');

/** A field id: no '/', so `<farm_id>/<field_id>` names a field as a reading location unambiguously. */
export const FIELD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const FieldId = z.string().regex(FIELD_ID_PATTERN, { message: 'must be 1-64 letters, digits, _ or -' });

export const FieldRegisterRequest = z
  .strictObject({
    field_id: FieldId.optional(),
    name: TrimmedText(200),
    area_ha: z.number().positive().max(1_000_000),
    location: GeoPoint,
    crop_type: TrimmedText(100).optional(),
  })
  .openapi('FieldRegisterRequest');
export type FieldRegisterRequest = z.infer<typeof FieldRegisterRequest>;

export const Field = z
  .object({
    field_id: z.string(),
    farm_id: z.string(),
    name: z.string(),
    area_ha: z.number(),
    location: GeoPoint,
    crop_type: z.string().nullable(),
    created_at: DateTime,
  })
  .openapi('Field');
export type Field = z.infer<typeof Field>;

export const FieldList = z.object({ farm_id: z.string(), items: z.array(Field) }).openapi('FieldList');
