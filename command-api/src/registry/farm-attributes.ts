import type { FarmAttributes, FarmCreateRequest } from '@cropcover/contracts';

/** A farm's attributes from an endpoint 8 body (also the `farm` of an enrolment): omitted ones null,
 *  `has_irrigation` false. */
export const attributesOf = (body: FarmCreateRequest): FarmAttributes => ({
  name: body.name,
  has_irrigation: body.has_irrigation ?? false,
  farm_type: body.farm_type ?? null,
  farm_size: body.farm_size ?? null,
  tenure_type: body.tenure_type ?? null,
  irrigation_type: body.irrigation_type ?? null,
  water_source: body.water_source ?? null,
  common_grown_crops: body.common_grown_crops ?? null,
  soil_type: body.soil_type ?? null,
  currency: body.currency ?? null,
  location: body.location ?? null,
  country: body.country ?? null,
});
