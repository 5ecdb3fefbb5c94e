import { decodeEvent, isOneOf } from '@cropcover/application';
import type { ProductEvent } from '@cropcover/contracts';
import type { Projection } from '../projection';

const HANDLED = new Set<ProductEvent['type']>(['ProductVersionRegistered', 'ProductVersionRetired']);

/** Products' versions (`product_versions`) from the `product-<organization_id>.<product_id>` streams. A
 *  version is registered once and only its status changes after, so a replayed registration is ignored.
 *  Products change rarely: a statement per event, in log order, keeps a retirement after its
 *  registration in the same batch. */
export const productsProjection: Projection = {
  name: 'products',
  tables: ['product_versions'],
  apply: async (trx, events) => {
    for (const event of events.filter(isOneOf(HANDLED)).map(decodeEvent)) {
      if (event.type === 'ProductVersionRegistered') {
        const { organization_id, product_id, version, digest, sheet, registered_at } = event.data;
        await trx
          .insertInto('product_versions')
          .values({
            organization_id,
            product_id,
            version,
            digest,
            status: 'active',
            name: sheet.name,
            sheet: JSON.stringify(sheet),
            registered_at,
            retired_at: null,
          })
          .onConflict((conflict) => conflict.columns(['organization_id', 'product_id', 'version']).doNothing())
          .execute();
      } else {
        const { organization_id, product_id, version, retired_at } = event.data;
        await trx
          .updateTable('product_versions')
          .set({ status: 'retired', retired_at })
          .where('organization_id', '=', organization_id)
          .where('product_id', '=', product_id)
          .where('version', '=', version)
          .execute();
      }
    }
  },
};
