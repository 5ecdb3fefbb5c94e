import { DateTime } from '../common';
import { z } from '../zod';
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
