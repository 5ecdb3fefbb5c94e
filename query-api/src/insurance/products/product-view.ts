import { DEFAULT_PRODUCT_ID, type Product, type ProductVersion, type ProductVersionEntry } from '@cropcover/contracts';
import { DEFAULT_PRODUCT_VERSION } from '@cropcover/domain';
import type { ProductVersionsTable } from '@cropcover/read-store';
import type { Selectable } from 'kysely';
import { isoTimestamp } from '../../timestamps';

/** An organization's products are its insurers' terms and its auditors' to check (TERM-SHEETS.md §2.1);
 *  other organizations see none of them, every one sees `default`. */
export const PRODUCT_READERS = ['insurer', 'auditor'] as const;

type VersionRow = Selectable<ProductVersionsTable>;

export const productVersionOfRow = (row: VersionRow): ProductVersion => ({
  product_id: row.product_id,
  version: row.version,
  digest: row.digest,
  status: row.status,
  sheet: row.sheet,
  registered_at: isoTimestamp(row.registered_at),
});

const entryOf = ({ version, digest, status, sheet, registered_at }: ProductVersion): ProductVersionEntry => ({
  version,
  digest,
  status,
  name: sheet.name,
  registered_at,
});

/** The built-in `default`: one version, active since ever. */
export const DEFAULT_PRODUCT_SUMMARY: Product = {
  product_id: DEFAULT_PRODUCT_ID,
  built_in: true,
  versions: [entryOf(DEFAULT_PRODUCT_VERSION)],
};

/** A product from its versions' rows, oldest version first. */
export const productOfRows = (productId: string, rows: readonly VersionRow[]): Product => ({
  product_id: productId,
  built_in: false,
  versions: rows.map((row) => ({
    version: row.version,
    digest: row.digest,
    status: row.status,
    name: row.name,
    registered_at: isoTimestamp(row.registered_at),
  })),
});
