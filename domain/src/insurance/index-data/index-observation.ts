/** The file a value came from (INDEX-DATA §2.1): its hex SHA-256 and the release it was ingested as. */
export interface ReadingFile {
  readonly sha256: string;
  /** `?label=` of the ingestion (`prelim`, `final`); null when it had none. */
  readonly label: string | null;
}

/** One reading of an index on one UTC date, as the read store holds it. */
export interface IndexObservation {
  readonly date: string;
  readonly value: number;
  /** 1 when first recorded, +1 per replacement: part of what an evaluation's digest proves it used. */
  readonly revision: number;
  /** The files the value came from: one for a value of one series ingested from a file, each distinct
   *  file of its cells (by sha256) for a sampled value; absent for a value posted through the readings
   *  API, and on reads that record no provenance (the pricing cache). */
  readonly files?: readonly ReadingFile[];
}

/** A reading as the engine uses it: its day number and its value in millionths of the index's unit. */
export type DayValue = readonly [day: number, value: bigint];
