/** One reading of an index on one UTC date, as the read store holds it. */
export interface IndexObservation {
  readonly date: string;
  readonly value: number;
  /** 1 when first recorded, +1 per replacement: part of what an evaluation's digest proves it used. */
  readonly revision: number;
}

/** A reading as the engine uses it: its day number and its value in millionths of the index's unit. */
export type DayValue = readonly [day: number, value: bigint];
