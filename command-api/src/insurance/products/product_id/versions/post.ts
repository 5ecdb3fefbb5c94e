import { handleCommand } from '@cropcover/application';
import {
  ProductIfMatchHeader,
  ProductPathParams,
  ProductSheetRequest,
  ProductVersion,
  versionOfIfMatch,
} from '@cropcover/contracts';
import { productAggregate, productStreamId, productVersionView, registerProductVersion } from '@cropcover/domain';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { awaitReadModels } from '../../../../read-your-writes';
import { BUILT_IN_PRODUCT, INVALID_TERM_SHEET, PRODUCT_WRITERS, UNKNOWN_PRODUCT } from '../../product-problems';

/** TERM-SHEETS.md §2.1: the next version of a product. Policies issued on earlier versions keep theirs. */
export const registerProductVersionRoute = commandRoute('POST /insurance/products/{product_id}/versions', {
  summary: "Register the next version of one of the organization's products",
  description:
    'A sheet identical to the latest version (same digest) records nothing and answers 200 with that ' +
    'version. `If-Match: "v<n>"` registers only while version n is the latest (412 otherwise).',
  roles: PRODUCT_WRITERS,
  request: { params: ProductPathParams, headers: ProductIfMatchHeader, body: ProductSheetRequest },
  success: {
    status: 201,
    schema: ProductVersion,
    description: 'Registered; Location names the version',
    unchanged: { status: 200, description: 'The sheet is the latest version’s: that version, nothing recorded' },
  },
  problems: {
    404: UNKNOWN_PRODUCT,
    409: {
      description: `${BUILT_IN_PRODUCT.description}; ${KEPT_CHANGING.description}`,
      codes: [...BUILT_IN_PRODUCT.codes, ...KEPT_CHANGING.codes],
    },
    412: {
      description: 'precondition_failed: If-Match names another version than the latest',
      codes: ['precondition_failed'],
    },
    422: INVALID_TERM_SHEET,
  },
}).handle(
  async ({ deps, params: { product_id }, headers, body: { sheet }, organizationId, req, res, answerUnchanged }) => {
    const context = commandContextOf(req, deps.clock.now());
    const ifMatch = headers['If-Match'];
    const outcome = await handleCommand(
      deps.eventStore,
      productStreamId(organizationId, product_id),
      productAggregate,
      (state) =>
        registerProductVersion(
          {
            actor: context.actor,
            productId: product_id,
            sheet,
            now: context.now,
            ...(ifMatch === undefined ? {} : { expectedVersion: versionOfIfMatch(ifMatch) }),
          },
          state,
        ),
      context,
    );
    if (outcome.state.status !== 'registered') throw new Error(`product ${product_id} has no version`);
    const latest = outcome.state.versions.at(-1)!;
    if (outcome.appended === undefined) answerUnchanged();
    else {
      await awaitReadModels(deps.readYourWrites, res, outcome.appended.position);
      res.location(`/insurance/products/${product_id}/versions/${latest.version}`);
    }
    return productVersionView(product_id, latest);
  },
);
