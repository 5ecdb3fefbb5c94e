/** A cell a sampled location reads, with its weight over the neighbourhood's common denominator. */
export interface WeightedCell {
  readonly cell: string;
  readonly weight: bigint;
}

/** The cells a location reads and their exact weights (summing to `denominator`): the four bilinear
 *  neighbours of a point, or the cells of a unit area with equal weights. */
export interface SampledCells {
  readonly cells: readonly WeightedCell[];
  readonly denominator: bigint;
}

/** The cells of a unit area with equal weights (INDEX-DATA §2.4 `unit_mean`). */
export const equallyWeighted = (cells: readonly string[]): SampledCells => ({
  cells: cells.map((cell) => ({ cell, weight: 1n })),
  denominator: BigInt(cells.length),
});
