import { expect } from 'vitest';
// What the seed (the API contract) fixes about response shapes, shared by the end-to-end suites.

/** A `date-time` as the service writes it: ISO 8601 in UTC with milliseconds. */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The fields of a Policy (seed §2), sorted, for a policy that is monitored and on a registered field. */
export const POLICY_KEYS = [
  'crop_type',
  'currency',
  'environment',
  'farm_id',
  'farm_name',
  'field_area_ha',
  'field_id',
  'field_location',
  'field_name',
  'issued_at',
  'next_monitoring_date',
  'organization_id',
  'perils',
  'platform_version',
  'policy_id',
  'premium',
  'product',
  'status',
  'sum_insured',
  'term_end',
  'term_start',
  'triggers',
];

/** The product every policy and quote names when the request names none: the built-in `default`, its one
 *  version, named by its sheet's digest. */
export const DEFAULT_PRODUCT = {
  product_id: 'default',
  version: 1,
  digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
};
