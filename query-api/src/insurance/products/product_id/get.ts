import { DEFAULT_PRODUCT_ID, Product, ProductPathParams } from '@cropcover/contracts';
import { queryRoute } from '../../../query-route';
import { DEFAULT_PRODUCT_SUMMARY, PRODUCT_READERS, productOfRows } from '../product-view';

/** A product and its versions; other organizations' products are not found. */
export const getProduct = queryRoute('GET /insurance/products/{product_id}', {
  summary: "A product of the caller's organization (or `default`) and its versions, oldest first",
  roles: PRODUCT_READERS,
  request: { params: ProductPathParams },
  success: { status: 200, schema: Product, description: 'The product' },
  problems: { 404: { description: 'product_not_found', codes: ['product_not_found'] } },
}).handle(async ({ deps, params: { product_id }, organizationId, refuse }) => {
  if (product_id === DEFAULT_PRODUCT_ID) return DEFAULT_PRODUCT_SUMMARY;
  const rows = await deps.db
    .selectFrom('product_versions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('product_id', '=', product_id)
    .orderBy('version')
    .execute();
  if (rows.length === 0) throw refuse('product_not_found', `No product ${product_id} in your organization.`);
  return productOfRows(product_id, rows);
});
