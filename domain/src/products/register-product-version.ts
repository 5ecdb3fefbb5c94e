import { DEFAULT_PRODUCT_ID, type ProductEvent, type TermSheet } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { sheetDigest } from '../insurance/term-sheet/sheet-digest';
import { validateTermSheet } from '../insurance/term-sheet/validate';
import { latestVersion, type Product } from './product';

export interface RegisterProductVersion {
  readonly actor: Actor;
  readonly productId: string;
  /** Already of the sheet's shape (zod: 400 otherwise); its rules are checked here. */
  readonly sheet: TermSheet;
  readonly now: Date;
  /** `POST …/versions` with `If-Match: "v<n>"`: the version the client last saw. */
  readonly expectedVersion?: number;
}

const organizationOf = (actor: Actor): string => {
  if (actor.organizationId === null) {
    throw new DomainError('forbidden', 'organization_required', 'registering a product needs an organization (org_id)');
  }
  return actor.organizationId;
};

/** `default` is the built-in product: no organization registers it or a version of it (409). */
export const refuseBuiltIn = (productId: string): void => {
  if (productId === DEFAULT_PRODUCT_ID) {
    throw new DomainError('conflict', 'product_exists', '`default` is the built-in product: it is never registered');
  }
};

/** The sheet's rules (TERM-SHEETS.md §2.2): 422 `invalid_term_sheet`, one `errors[]` entry per rule broken. */
export const refuseInvalidSheet = (sheet: TermSheet): void => {
  const errors = validateTermSheet(sheet);
  if (errors.length > 0) {
    throw new DomainError(
      'rejected',
      'invalid_term_sheet',
      `the term sheet breaks ${errors.length === 1 ? 'a rule' : `${errors.length} rules`}: ${errors
        .map((found) => found.code)
        .join(', ')}`,
      errors.map((found) => ({ ...found })),
    );
  }
};

const registered = (command: RegisterProductVersion, organizationId: string, version: number): ProductEvent => ({
  type: 'ProductVersionRegistered',
  data: {
    organization_id: organizationId,
    product_id: command.productId,
    version,
    sheet: command.sheet,
    digest: sheetDigest(command.sheet),
    registered_at: command.now.toISOString(),
  },
});

/** `POST /insurance/products`: version 1 of a new product of the caller's organization. `default` is the
 *  built-in product and an id the organization has is taken (409 `product_exists`: new terms go to
 *  `…/versions`). */
export const registerProduct = (command: RegisterProductVersion, state: Product): ProductEvent[] => {
  const organizationId = organizationOf(command.actor);
  refuseBuiltIn(command.productId);
  if (state.status === 'registered') {
    throw new DomainError(
      'conflict',
      'product_exists',
      `your organization already has ${command.productId}: register new terms as its next version`,
    );
  }
  refuseInvalidSheet(command.sheet);
  return [registered(command, organizationId, 1)];
};

/** `POST /insurance/products/{product_id}/versions`: the next version. A sheet identical to the latest
 *  version's (same digest) registers nothing: the caller answers with that version. */
export const registerProductVersion = (command: RegisterProductVersion, state: Product): ProductEvent[] => {
  const organizationId = organizationOf(command.actor);
  refuseBuiltIn(command.productId);
  if (state.status !== 'registered') {
    throw new DomainError('not_found', 'product_not_found', `no product ${command.productId} is visible to you`);
  }
  const latest = latestVersion(state);
  if (command.expectedVersion !== undefined && command.expectedVersion !== latest.version) {
    throw new DomainError(
      'precondition_failed',
      'precondition_failed',
      `${command.productId} is at version ${latest.version}, not ${command.expectedVersion}`,
    );
  }
  refuseInvalidSheet(command.sheet);
  if (sheetDigest(command.sheet) === latest.digest) return [];
  return [registered(command, organizationId, latest.version + 1)];
};
