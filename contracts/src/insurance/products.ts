import { DateTime } from '../common';
import { z } from '../zod';
import { PageNumber, PageSize } from './pagination';
import { TermSheet } from './term-sheet';

// Products (TERM-SHEETS.md §2.1): an organization's term sheets, each version immutable and named by the
// digest of its sheet. Stream `product-<organization_id>.<product_id>`.

/** The built-in product every organization reads and none registers: today's catalog (example E). */
export const DEFAULT_PRODUCT_ID = 'default';

export const ProductId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{2,63}$/, { message: 'must be 3–64 lower-case letters, digits or -, not starting with -' })
  .openapi({ example: 'kharif-deficit-rain' });

/** `sha256:` + hex of the sheet's RFC 8785 canonical JSON. */
export const SheetDigest = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/)
  .openapi({ example: 'sha256:7f83b1657ff1fc53b92dc18148a1d65dfc2d4b1fa3d677284addd200126d9069' });

/** The product version a policy was issued on, frozen with its sheet. Version 0 of `default` is the sheet
 *  a policy issued before products is read as, built from its own frozen triggers. */
export const PolicyProduct = z
  .object({ product_id: z.string(), version: z.number().int().nonnegative(), digest: SheetDigest })
  .openapi('PolicyProduct');
export type PolicyProduct = z.infer<typeof PolicyProduct>;

export const ProductVersionStatus = z.enum(['active', 'retired']).openapi('ProductVersionStatus');
export type ProductVersionStatus = z.infer<typeof ProductVersionStatus>;

export const ProductVersion = z
  .object({
    product_id: z.string(),
    version: z.number().int().nonnegative(),
    digest: SheetDigest,
    status: ProductVersionStatus,
    sheet: TermSheet,
    registered_at: DateTime,
  })
  .openapi('ProductVersion');
export type ProductVersion = z.infer<typeof ProductVersion>;

export const ProductVersionRegistered = z
  .object({
    organization_id: z.string(),
    product_id: z.string(),
    version: z.number().int().positive(),
    sheet: TermSheet,
    digest: SheetDigest,
    registered_at: DateTime,
  })
  .openapi('ProductVersionRegistered');
export type ProductVersionRegistered = z.infer<typeof ProductVersionRegistered>;

/** No new quote or issue on the version from then on; policies issued on it keep their frozen sheet. */
export const ProductVersionRetired = z
  .object({
    organization_id: z.string(),
    product_id: z.string(),
    version: z.number().int().positive(),
    retired_at: DateTime,
  })
  .openapi('ProductVersionRetired');
export type ProductVersionRetired = z.infer<typeof ProductVersionRetired>;

export const ProductEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ProductVersionRegistered'), data: ProductVersionRegistered }),
  z.object({ type: z.literal('ProductVersionRetired'), data: ProductVersionRetired }),
]);
export type ProductEvent = z.infer<typeof ProductEvent>;

/** `POST /insurance/products`: version 1 of a new product of the caller's organization. */
export const ProductRegisterRequest = z
  .strictObject({ product_id: ProductId, sheet: TermSheet })
  .openapi('ProductRegisterRequest');
export type ProductRegisterRequest = z.infer<typeof ProductRegisterRequest>;

/** What a sheet's phase table is, where the API takes or answers one (text/csv, TERM-SHEETS.md §5.1). */
export const PHASE_TABLE_DESCRIPTION =
  'The term sheet as its phase table (docs/term-sheets.md, "The phase table"): a header, then one row per ' +
  "phase; the sheet's fields on the first row, its cover's on each row; an empty cell is an absent field, a " +
  'cell starting with {, [ or " is JSON.';

/** `POST /insurance/products` with the sheet as its phase table (text/csv): the product's id, which a JSON
 *  body carries itself and so must not be named here too. */
export const ProductRegisterQuery = z.strictObject({
  product_id: ProductId.optional().openapi({
    description: 'With a text/csv body (the sheet as its phase table): the product to register. Not with JSON.',
  }),
});
export type ProductRegisterQuery = z.infer<typeof ProductRegisterQuery>;

/** `?format=csv`: a version's sheet as its phase table (TERM-SHEETS.md §5.1) instead of the JSON version. */
export const ProductVersionQuery = z.strictObject({
  format: z
    .enum(['json', 'csv'])
    .optional()
    .openapi({ description: '`csv`: the sheet as its phase table (text/csv); `json` (the default): the version.' }),
});
export type ProductVersionQuery = z.infer<typeof ProductVersionQuery>;

/** `POST …/versions` and `POST /insurance/products/validate`: a sheet alone. */
export const ProductSheetRequest = z.strictObject({ sheet: TermSheet }).openapi('ProductSheetRequest');
export type ProductSheetRequest = z.infer<typeof ProductSheetRequest>;

/** What `validate` answers for a sheet that breaks no rule: the digest it would be registered under. */
export const ProductSheetValidation = z
  .object({ valid: z.literal(true), digest: SheetDigest })
  .openapi('ProductSheetValidation');
export type ProductSheetValidation = z.infer<typeof ProductSheetValidation>;

/** Any id up to 100 characters: an unknown one is a 404 like every other resource's, never a 400. */
export const ProductPathParams = z.strictObject({ product_id: z.string().min(1).max(100) });
export const ProductVersionPathParams = z.strictObject({
  product_id: z.string().min(1).max(100),
  version: z
    .string({ message: 'must be a version number' })
    .regex(/^[1-9][0-9]{0,8}$/, { message: 'must be a version number' })
    .transform(Number),
});

/** `If-Match: "v<n>"` on a new version: the version the client last saw (412 when another is the latest). */
export const ProductIfMatchHeader = z.object({
  'If-Match': z
    .string()
    .regex(/^"v[1-9][0-9]{0,6}"$/, { message: 'must be "v<version>"' })
    .optional()
    .openapi({ description: 'The latest version as last read, `"v<n>"`; another latest version answers 412.' }),
});

/** The version an `If-Match: "v<n>"` names. */
export const versionOfIfMatch = (ifMatch: string): number => Number(ifMatch.slice(2, -1));

/** A version in a product's list: its sheet is read at `…/versions/{version}`. */
export const ProductVersionEntry = z
  .object({
    version: z.number().int().nonnegative(),
    digest: SheetDigest,
    status: ProductVersionStatus,
    name: z.string(),
    registered_at: DateTime,
  })
  .openapi('ProductVersionEntry');
export type ProductVersionEntry = z.infer<typeof ProductVersionEntry>;

/** A product and its versions, oldest first; `built_in` for `default`. */
export const Product = z
  .object({ product_id: z.string(), built_in: z.boolean(), versions: z.array(ProductVersionEntry) })
  .openapi('Product');
export type Product = z.infer<typeof Product>;

export const ProductList = z
  .object({
    items: z.array(Product),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('ProductList');
export type ProductList = z.infer<typeof ProductList>;

export const ProductsQuery = z.strictObject({ page: PageNumber, page_size: PageSize });
export type ProductsQuery = z.infer<typeof ProductsQuery>;

/** What quote and issue sell: absent → `default`; no version → the latest active one. The quote's
 *  `product` may be sent back as it is: a digest, when given, must be the version's. */
export const ProductChoice = z
  .strictObject({
    product_id: ProductId,
    version: z.number().int().positive().optional(),
    digest: SheetDigest.optional(),
  })
  .openapi('ProductChoice');
export type ProductChoice = z.infer<typeof ProductChoice>;
