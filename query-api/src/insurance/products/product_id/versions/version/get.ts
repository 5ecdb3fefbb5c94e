import {
  DEFAULT_PRODUCT_ID,
  PHASE_TABLE_DESCRIPTION,
  ProductVersion,
  ProductVersionPathParams,
  ProductVersionQuery,
} from '@cropcover/contracts';
import { DEFAULT_PRODUCT_VERSION, DEFAULT_SHEET, writePhaseTable } from '@cropcover/domain';
import { queryRoute } from '../../../../../query-route';
import { PRODUCT_READERS, productVersionOfRow } from '../../../product-view';

/** One immutable version with its whole sheet; `?format=csv` its sheet as its phase table (TERM-SHEETS.md
 *  §5.1), which registers as the same sheet. */
export const getProductVersion = queryRoute('GET /insurance/products/{product_id}/versions/{version}', {
  summary: 'One version of a product with its whole term sheet, digest and status',
  roles: PRODUCT_READERS,
  request: { params: ProductVersionPathParams, query: ProductVersionQuery },
  success: {
    status: 200,
    schema: ProductVersion,
    description: 'The version; with ?format=csv its sheet as its phase table',
    text: {
      format: 'csv',
      mediaType: 'text/csv',
      description: PHASE_TABLE_DESCRIPTION,
      example: writePhaseTable(DEFAULT_SHEET),
      write: (version: ProductVersion) => writePhaseTable(version.sheet),
    },
  },
  problems: { 404: { description: 'product_not_found', codes: ['product_not_found'] } },
}).handle(async ({ deps, params: { product_id, version }, organizationId, refuse }) => {
  if (product_id === DEFAULT_PRODUCT_ID) {
    if (version === DEFAULT_PRODUCT_VERSION.version) return DEFAULT_PRODUCT_VERSION;
    throw refuse('product_not_found', `default has no version ${version}.`);
  }
  const row = await deps.db
    .selectFrom('product_versions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('product_id', '=', product_id)
    .where('version', '=', version)
    .executeTakeFirst();
  if (!row) throw refuse('product_not_found', `No version ${version} of product ${product_id} in your organization.`);
  return productVersionOfRow(row);
});
