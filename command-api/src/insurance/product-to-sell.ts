import { loadStream } from '@cropcover/application';
import { DEFAULT_PRODUCT_ID, type ProductChoice } from '@cropcover/contracts';
import { initialProduct, type ProductTerms, productAggregate, productStreamId, productToSell } from '@cropcover/domain';
import type { CommandApiDeps } from '../command-api-deps';

/** The product version a quote or issue names (TERM-SHEETS.md §2.3), read from the log so a version
 *  registered or retired a moment ago counts: `default` when none is named, else the organization's own
 *  (404 `product_not_found`, 422 `product_retired`). */
export const productOfCover = async (
  deps: Pick<CommandApiDeps, 'eventStore'>,
  organizationId: string,
  choice: ProductChoice | undefined,
): Promise<ProductTerms> => {
  if (choice === undefined || choice.product_id === DEFAULT_PRODUCT_ID) return productToSell(initialProduct, choice);
  const product = await loadStream(
    deps.eventStore,
    productStreamId(organizationId, choice.product_id),
    productAggregate,
  );
  return productToSell(product.state, choice);
};
