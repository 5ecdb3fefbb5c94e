import { decodeEvent, isOneOf } from '@cropcover/application';
import type { IndexSourceEvent } from '@cropcover/contracts';
import type { Projection } from '../projection';
import { inChunks } from './row-chunks';

const HANDLED = new Set<IndexSourceEvent['type']>(['IndexSourceRegistered']);

/** Index sources (`index_sources`) from the `index_source-<id>` streams. A source is registered once and
 *  never changes, so a replayed registration is ignored and a batch is one insert per chunk. */
export const indexSourcesProjection: Projection = {
  name: 'index_sources',
  tables: ['index_sources'],
  apply: async (trx, events) => {
    const rows = events
      .filter(isOneOf(HANDLED))
      .map(decodeEvent)
      .map(
        ({
          data: {
            registered_by: _registeredBy,
            stations,
            unit,
            currency,
            cadence,
            sampling,
            product,
            model,
            ...source
          },
        }) => ({
          ...source,
          // node-postgres would send a JS array as a PostgreSQL array literal, which jsonb rejects.
          stations: stations === null ? null : JSON.stringify(stations),
          unit: unit ?? null,
          currency: currency ?? null,
          cadence: cadence ?? 'daily',
          sampling: sampling ?? 'cell',
          product: product === undefined ? null : JSON.stringify(product),
          model: model === undefined ? null : JSON.stringify(model),
        }),
      );
    for (const chunk of inChunks(rows)) {
      await trx
        .insertInto('index_sources')
        .values(chunk)
        .onConflict((conflict) => conflict.column('source_id').doNothing())
        .execute();
    }
  },
};
