import { handleCommand } from '@cropcover/application';
import { ProductRegisterQuery, ProductRegisterRequest, ProductVersion } from '@cropcover/contracts';
import { productAggregate, productStreamId, productVersionView, registerProduct } from '@cropcover/domain';
import { ProblemError } from '@cropcover/runtime';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { awaitReadModels } from '../../read-your-writes';
import { phaseTableBody } from './phase-table-body';
import { INVALID_TERM_SHEET, MALFORMED_PHASE_TABLE, PRODUCT_WRITERS } from './product-problems';

/** TERM-SHEETS.md §2.1: version 1 of a new product of the caller's organization. */
export const registerProductRoute = commandRoute('POST /insurance/products', {
  summary: "Register a product: version 1 of a term sheet of the caller's organization",
  description:
    'The sheet is checked for its shape (400) and then for the rules of TERM-SHEETS.md §2.2 (422 ' +
    'invalid_term_sheet, every rule broken listed). Versions are immutable and named by the sha256 digest ' +
    'of the RFC 8785 canonical JSON of their sheet; new terms go to …/versions.',
  roles: PRODUCT_WRITERS,
  request: {
    query: ProductRegisterQuery,
    body: ProductRegisterRequest,
    text: phaseTableBody((sheet, query) => ({ product_id: (query as ProductRegisterQuery).product_id, sheet })),
  },
  success: { status: 201, schema: ProductVersion, description: 'Registered; Location names the version' },
  problems: {
    400: MALFORMED_PHASE_TABLE,
    409: {
      description: 'product_exists: the organization has this product already, or it is `default`',
      codes: ['product_exists', ...KEPT_CHANGING.codes],
    },
    422: INVALID_TERM_SHEET,
  },
}).handle(async ({ deps, query, body: { product_id, sheet }, organizationId, req, res }) => {
  // A JSON body names its product itself: the query's would be a second name, one of them ignored.
  if (query.product_id !== undefined && !req.is('text/csv'))
    throw ProblemError.validationFailed([{ path: 'product_id', message: 'is named in the query only with text/csv' }]);
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    productStreamId(organizationId, product_id),
    productAggregate,
    (state) => registerProduct({ actor: context.actor, productId: product_id, sheet, now: context.now }, state),
    context,
  );
  if (outcome.state.status !== 'registered') throw new Error(`product ${product_id} was not registered`);
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  res.location(`/insurance/products/${product_id}/versions/1`);
  return productVersionView(product_id, outcome.state.versions[0]!);
});
