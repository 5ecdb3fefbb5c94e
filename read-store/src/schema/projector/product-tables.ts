import type { ProductVersionStatus, TermSheet } from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../../columns';

/** A sheet as jsonb: it goes in as JSON text and comes back as the object; jsonb keeps each number as the
 *  decimal it was written as, so the sheet reads back digit for digit. */
export type JsonTermSheet = ColumnType<TermSheet, string, string>;

/** Each version of an organization's products, projected from `product-<organization_id>.<product_id>`.
 *  Column names follow the API's JSON field names. */
export interface ProductVersionsTable {
  organization_id: string;
  product_id: string;
  version: number;
  digest: string;
  status: ProductVersionStatus;
  /** The sheet's name, for lists that leave the sheet out. */
  name: string;
  sheet: JsonTermSheet;
  registered_at: Timestamp;
  retired_at: NullableTimestamp;
}

export interface ProductTables {
  product_versions: ProductVersionsTable;
}
