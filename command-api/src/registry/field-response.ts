import type { Field } from '@cropcover/contracts';
import type { FarmField } from '@cropcover/domain';

export const fieldResponse = (farmId: string, field: FarmField): Field => ({
  field_id: field.fieldId,
  farm_id: farmId,
  name: field.name,
  area_ha: field.areaHa,
  location: field.location,
  crop_type: field.cropType,
  created_at: field.registeredAt,
});
