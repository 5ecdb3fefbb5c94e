import { ProductList, ProductsQuery } from '@cropcover/contracts';
import { queryRoute } from '../../query-route';
import { DEFAULT_PRODUCT_SUMMARY, PRODUCT_READERS, productOfRows } from './product-view';

/** The built-in `default` first, then the organization's own products by id. */
export const listProducts = queryRoute('GET /insurance/products', {
  summary: "The products the caller's organization may sell: `default` first, then its own by id",
  roles: PRODUCT_READERS,
  request: { query: ProductsQuery },
  success: { status: 200, schema: ProductList, description: 'A page of products with their versions' },
}).handle(async ({ deps, query: { page, page_size }, organizationId }) => {
  const scope = deps.db.selectFrom('product_versions').where('organization_id', '=', organizationId);
  // `default` takes the first place of the first page; the organization's products fill the rest.
  const first = (page - 1) * page_size;
  const [ids, { total }] = await Promise.all([
    scope
      .select('product_id')
      .distinct()
      .orderBy('product_id')
      .limit(page === 1 ? page_size - 1 : page_size)
      .offset(page === 1 ? 0 : first - 1)
      .execute(),
    scope.select((eb) => eb.fn.count<string>('product_id').distinct().as('total')).executeTakeFirstOrThrow(),
  ]);
  const rows =
    ids.length === 0
      ? []
      : await scope
          .selectAll()
          .where(
            'product_id',
            'in',
            ids.map(({ product_id }) => product_id),
          )
          .orderBy('product_id')
          .orderBy('version')
          .execute();
  const own = ids.map(({ product_id }) =>
    productOfRows(
      product_id,
      rows.filter((row) => row.product_id === product_id),
    ),
  );
  return {
    items: page === 1 ? [DEFAULT_PRODUCT_SUMMARY, ...own] : own,
    total: Number(total) + 1,
    page,
    page_size,
  };
});
