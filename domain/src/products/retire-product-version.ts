import type { ProductEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import type { Product } from './product';
import { refuseBuiltIn } from './register-product-version';

export interface RetireProductVersion {
  readonly actor: Actor;
  readonly productId: string;
  readonly version: number;
  readonly now: Date;
}

/** `POST …/versions/{version}/retire`: no new quote or issue on the version; policies issued on it keep
 *  their frozen sheet. Retiring a retired version records nothing. */
export const retireProductVersion = (command: RetireProductVersion, state: Product): ProductEvent[] => {
  refuseBuiltIn(command.productId);
  const found =
    state.status === 'registered' ? state.versions.find((version) => version.version === command.version) : undefined;
  if (state.status !== 'registered' || found === undefined) {
    throw new DomainError(
      'not_found',
      'product_not_found',
      `no version ${command.version} of product ${command.productId} is visible to you`,
    );
  }
  if (found.status === 'retired') return [];
  return [
    {
      type: 'ProductVersionRetired',
      data: {
        organization_id: state.organizationId,
        product_id: state.productId,
        version: command.version,
        retired_at: command.now.toISOString(),
      },
    },
  ];
};
