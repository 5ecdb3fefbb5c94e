import {
  DEFAULT_PRODUCT_ID,
  type ProductChoice,
  type ProductEvent,
  type ProductVersion,
  type ProductVersionStatus,
  type TermSheet,
} from '@cropcover/contracts';
import { type Aggregate, streamName } from '../aggregate';
import { DomainError } from '../domain-error';
import { DEFAULT_PRODUCT } from '../insurance/term-sheet/builtin';
import type { ProductTerms } from '../insurance/term-sheet/product';

// A product (TERM-SHEETS.md §2.1): an organization's term sheet in immutable versions, each named by the
// digest of its sheet. Quote and issue name a version; the policy freezes its sheet, so a later version or
// a retirement never reaches it.

export interface ProductVersionState {
  readonly version: number;
  readonly digest: string;
  readonly sheet: TermSheet;
  readonly status: ProductVersionStatus;
  readonly registeredAt: string;
}

export type Product =
  | { readonly status: 'not_registered' }
  | {
      readonly status: 'registered';
      readonly organizationId: string;
      readonly productId: string;
      /** Version 1 first, one after the other. */
      readonly versions: readonly ProductVersionState[];
    };

export type RegisteredProduct = Extract<Product, { status: 'registered' }>;

export const initialProduct: Product = { status: 'not_registered' };

export const evolveProduct = (state: Product, event: ProductEvent): Product => {
  switch (event.type) {
    case 'ProductVersionRegistered': {
      const { organization_id, product_id, version, digest, sheet, registered_at } = event.data;
      const registered: ProductVersionState = { version, digest, sheet, status: 'active', registeredAt: registered_at };
      return state.status === 'registered'
        ? { ...state, versions: [...state.versions, registered] }
        : { status: 'registered', organizationId: organization_id, productId: product_id, versions: [registered] };
    }
    case 'ProductVersionRetired':
      return state.status === 'registered'
        ? {
            ...state,
            versions: state.versions.map((version) =>
              version.version === event.data.version ? { ...version, status: 'retired' } : version,
            ),
          }
        : state;
  }
};

/** `product-<organization_id>.<product_id>`: product ids are unique per organization. */
export const productStream = streamName('product');

/** The stream id of an organization's product. */
export const productStreamId = (organizationId: string, productId: string): string =>
  productStream(`${organizationId}.${productId}`);

export const productAggregate: Aggregate<Product, ProductEvent> = { initial: initialProduct, evolve: evolveProduct };

/** A version as the API shows it. */
export const productVersionView = (productId: string, version: ProductVersionState): ProductVersion => ({
  product_id: productId,
  version: version.version,
  digest: version.digest,
  status: version.status,
  sheet: version.sheet,
  registered_at: version.registeredAt,
});

/** The built-in `default`, readable by every organization: version 1, active since ever. */
export const DEFAULT_PRODUCT_VERSION: ProductVersion = {
  product_id: DEFAULT_PRODUCT_ID,
  version: DEFAULT_PRODUCT.ref.version,
  digest: DEFAULT_PRODUCT.ref.digest,
  status: 'active',
  sheet: DEFAULT_PRODUCT.sheet,
  registered_at: '1970-01-01T00:00:00.000Z',
};

export const latestVersion = (product: RegisteredProduct): ProductVersionState => product.versions.at(-1)!;

/** The version quote and issue price on: the one named, else the latest active (404 `product_not_found`
 *  for none; 422 `product_retired` for a retired one named). */
export const versionToSell = (state: Product, productId: string, version: number | undefined): ProductVersionState => {
  if (state.status !== 'registered') {
    throw new DomainError('not_found', 'product_not_found', `no product ${productId} is visible to you`);
  }
  if (version === undefined) {
    const active = state.versions.findLast((candidate) => candidate.status === 'active');
    if (active === undefined) {
      throw new DomainError('rejected', 'product_retired', `every version of ${productId} is retired`);
    }
    return active;
  }
  const named = state.versions.find((candidate) => candidate.version === version);
  if (named === undefined) {
    throw new DomainError('not_found', 'product_not_found', `${productId} has no version ${version}`);
  }
  if (named.status === 'retired') {
    throw new DomainError('rejected', 'product_retired', `${productId} version ${version} is retired`);
  }
  return named;
};

/** What quote and issue sell, as the policy freezes it (TERM-SHEETS.md §2.3): `default` is built in (its
 *  one version, 1); any other product is the organization's own, `state` its stream. */
export const productToSell = (state: Product, choice: ProductChoice | undefined): ProductTerms => {
  const product =
    choice === undefined || choice.product_id === DEFAULT_PRODUCT_ID
      ? defaultToSell(choice?.version)
      : organizationsToSell(state, choice.product_id, choice.version);
  // Versions are immutable: another digest names terms this product never had under that version.
  if (choice?.digest !== undefined && choice.digest !== product.ref.digest) {
    throw new DomainError(
      'not_found',
      'product_not_found',
      `${product.ref.product_id} version ${product.ref.version} is ${product.ref.digest}, not ${choice.digest}`,
    );
  }
  return product;
};

const defaultToSell = (version: number | undefined): ProductTerms => {
  if (version !== undefined && version !== DEFAULT_PRODUCT.ref.version) {
    throw new DomainError('not_found', 'product_not_found', `default has no version ${version}`);
  }
  return DEFAULT_PRODUCT;
};

const organizationsToSell = (state: Product, productId: string, version: number | undefined): ProductTerms => {
  const sold = versionToSell(state, productId, version);
  return { ref: { product_id: productId, version: sold.version, digest: sold.digest }, sheet: sold.sheet };
};

/** The version a product backtest reads (TERM-SHEETS.md §5.1): the one named, retired or not (a designer
 *  compares old terms with new), else the latest active one, else the latest; `default` is built in. A
 *  digest, when given, must be the version's. */
export const productToBacktest = (state: Product, choice: ProductChoice): ProductTerms => {
  if (choice.product_id === DEFAULT_PRODUCT_ID) return productToSell(initialProduct, choice);
  if (state.status !== 'registered') {
    throw new DomainError('not_found', 'product_not_found', `no product ${choice.product_id} is visible to you`);
  }
  const version =
    choice.version === undefined
      ? (state.versions.findLast((candidate) => candidate.status === 'active') ?? latestVersion(state))
      : state.versions.find((candidate) => candidate.version === choice.version);
  if (version === undefined || (choice.digest !== undefined && choice.digest !== version.digest)) {
    throw new DomainError(
      'not_found',
      'product_not_found',
      `${choice.product_id} has no version ${choice.version ?? ''} ${choice.digest ?? ''}`.trim(),
    );
  }
  return {
    ref: { product_id: choice.product_id, version: version.version, digest: version.digest },
    sheet: version.sheet,
  };
};
