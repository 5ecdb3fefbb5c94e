import { DEFAULT_PRODUCT_ID, ProductVersion, ProductVersionPathParams } from '@cropcover/contracts';
import { DEFAULT_PRODUCT_VERSION } from '@cropcover/domain';
import { queryRoute } from '../../../../../query-route';
import { PRODUCT_READERS, productVersionOfRow } from '../../../product-view';

/** One immutable version with its whole sheet. */
export const getProductVersion = queryRoute('GET /insurance/products/{product_id}/versions/{version}', {
  summary: 'One version of a product with its whole term sheet, digest and status',
  roles: PRODUCT_READERS,
  request: { params: ProductVersionPathParams },
  success: { status: 200, schema: ProductVersion, description: 'The version' },
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
