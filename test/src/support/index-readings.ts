import { expect } from 'vitest';
import type { ApiClient, Caller } from './api-client';
import { addDays } from './calendar';

/** Posts one reading a day of `index` for a field, starting at `start`, and expects them accepted. */
export const recordReadings = async (
  api: ApiClient,
  dataProvider: Caller,
  field: { farm_id: string; field_id: string },
  index: string,
  start: string,
  values: readonly number[],
): Promise<void> => {
  const response = await api.post('/insurance/index-readings', dataProvider, {
    readings: values.map((value, offset) => ({
      farm_id: field.farm_id,
      field_id: field.field_id,
      index,
      date: addDays(start, offset),
      value,
    })),
  });
  expect(response.status).toBe(200);
};
