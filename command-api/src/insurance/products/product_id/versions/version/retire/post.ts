import { handleCommand } from '@cropcover/application';
import { ProductVersion, ProductVersionPathParams } from '@cropcover/contracts';
import { productAggregate, productStreamId, productVersionView, retireProductVersion } from '@cropcover/domain';
import { commandContextOf } from '../../../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../../../command-route';
import { awaitReadModels } from '../../../../../../read-your-writes';
import { BUILT_IN_PRODUCT, PRODUCT_WRITERS, UNKNOWN_PRODUCT } from '../../../../product-problems';

/** TERM-SHEETS.md §2.1: no new quote or issue on the version; policies issued on it keep their frozen
 *  sheet. Retiring a retired version records nothing. */
export const retireProductVersionRoute = commandRoute(
  'POST /insurance/products/{product_id}/versions/{version}/retire',
  {
    summary: 'Retire a version of a product: no new quote or issue on it; issued policies keep their sheet',
    roles: PRODUCT_WRITERS,
    request: { params: ProductVersionPathParams },
    success: { status: 200, schema: ProductVersion, description: 'The version, retired' },
    problems: {
      404: UNKNOWN_PRODUCT,
      409: {
        description: `${BUILT_IN_PRODUCT.description}; ${KEPT_CHANGING.description}`,
        codes: [...BUILT_IN_PRODUCT.codes, ...KEPT_CHANGING.codes],
      },
    },
  },
).handle(async ({ deps, params: { product_id, version }, organizationId, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    productStreamId(organizationId, product_id),
    productAggregate,
    (state) => retireProductVersion({ actor: context.actor, productId: product_id, version, now: context.now }, state),
    context,
  );
  const retired =
    outcome.state.status === 'registered'
      ? outcome.state.versions.find((candidate) => candidate.version === version)
      : undefined;
  if (retired === undefined) throw new Error(`product ${product_id} has no version ${version}`);
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  return productVersionView(product_id, retired);
});
