import type { RecordedEvent } from '@cropcover/eventstore';
import type { Projection } from '../projection';
import { farmersProjection } from '../projections/farmers-projection';

export interface GatedProjection extends Projection {
  /** Resolves once a batch is being applied and held at the gate. */
  readonly entered: Promise<void>;
  /** Lets the held batch and later ones through. */
  open(): void;
  /** Every event applied, in order. */
  readonly applied: RecordedEvent[];
}

/** The farmers projection under another name, holding its first batch until the test opens the gate:
 *  lets a test look at the projector while a batch is in flight. */
export const gatedProjection = (name: string): GatedProjection => {
  let open!: () => void;
  let enter!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const applied: RecordedEvent[] = [];
  return {
    name,
    tables: farmersProjection.tables,
    entered,
    open,
    applied,
    apply: async (trx, events) => {
      enter();
      await gate;
      await farmersProjection.apply(trx, events);
      applied.push(...events);
    },
  };
};
