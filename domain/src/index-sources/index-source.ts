import type {
  Cadence,
  IndexSourceEvent,
  IndexSourceKind,
  ModelDescriptor,
  ProductDescriptor,
  ReadingIndex,
  Sampling,
  SourceUnit,
  Station,
} from '@cropcover/contracts';
import { type Aggregate, streamName } from '../aggregate';

/** A registered source of index data: what a policy resolving its location needs, frozen as registered. */
export interface RegisteredIndexSource {
  readonly sourceId: string;
  readonly organizationId: string;
  readonly name: string;
  readonly index: ReadingIndex;
  readonly kind: IndexSourceKind;
  /** Station sources only, else empty. */
  readonly stations: readonly Station[];
  /** Station sources only, else null. */
  readonly radiusKm: number | null;
  /** Grid sources only, else null. */
  readonly resolutionDeg: number | null;
  /** INDEX-DATA.md §1. Null: the unit its index name implies, with that name's bounds. */
  readonly unit: SourceUnit | null;
  /** With unit `minor` only. */
  readonly currency: string | null;
  readonly cadence: Cadence;
  readonly sampling: Sampling;
  readonly product: ProductDescriptor | null;
  readonly model: ModelDescriptor | null;
  readonly registeredAt: string;
}

export type IndexSourceState =
  | { readonly status: 'unregistered' }
  | { readonly status: 'registered'; readonly source: RegisteredIndexSource };

export const initialIndexSource: IndexSourceState = { status: 'unregistered' };

export const evolveIndexSource = (_state: IndexSourceState, event: IndexSourceEvent): IndexSourceState => {
  const { data } = event;
  return {
    status: 'registered',
    source: {
      sourceId: data.source_id,
      organizationId: data.organization_id,
      name: data.name,
      index: data.index,
      kind: data.kind,
      stations: data.stations ?? [],
      radiusKm: data.radius_km,
      resolutionDeg: data.resolution_deg,
      unit: data.unit ?? null,
      currency: data.currency ?? null,
      cadence: data.cadence ?? 'daily',
      sampling: data.sampling ?? 'cell',
      product: data.product ?? null,
      model: data.model ?? null,
      registeredAt: data.registered_at,
    },
  };
};

/** `index_source-<source_id>`: one registered source. */
export const indexSourceStream = streamName('index_source');

export const indexSourceAggregate: Aggregate<IndexSourceState, IndexSourceEvent> = {
  initial: initialIndexSource,
  evolve: evolveIndexSource,
};
