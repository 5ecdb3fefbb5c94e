import type { IndexObservation, ReadingFile } from '../../insurance/index-data/index-observation';
import { decimalOfMillionths, divideRounded, scaleRounded } from '../../insurance/money/decimal';
import type { SampledCells } from './sampled-cells';

// Values carry up to 9 decimals (`index`, `fraction`), so they are weighed in billionths: the weighted sum
// is exact, and rounding it once to millionths, half up, is the only rounding.
const PLACES = 9;
const BILLIONTHS_PER_MILLIONTH = 1000n;

/**
 * The series a sampled location reads, from the series of its cells: on each date, the weighted sum of
 * the cells' values over the denominator, rounded once to 6 decimals half up. A date on which a cell of
 * non-zero weight has no reading has none either — a missing neighbour is missing, never 0. The revision
 * is the sum of the cells' revisions: it grows whenever any value used is replaced, so an evaluation's
 * digest still proves which revisions it read. Its files are its cells' distinct files, by sha256 (then
 * label), so the provenance names every file an auditor reads the value again from.
 */
export const sampledSeries = (
  sampled: SampledCells,
  seriesOf: (cell: string) => readonly IndexObservation[],
): IndexObservation[] => {
  const weighed = sampled.cells.filter(({ weight }) => weight !== 0n);
  const byCell = weighed.map(({ cell, weight }) => ({
    weight,
    byDate: new Map(seriesOf(cell).map((reading) => [reading.date, reading])),
  }));
  const [first] = byCell;
  if (first === undefined) return [];
  const dates = [...first.byDate.keys()].sort();
  return dates.flatMap((date) => {
    let sum = 0n;
    let revision = 0;
    // Made only for a value with files: pricing reads decades of values without them.
    let files: Map<string, ReadingFile> | undefined;
    for (const { weight, byDate } of byCell) {
      const reading = byDate.get(date);
      if (reading === undefined) return [];
      sum += weight * scaleRounded(reading.value, PLACES);
      revision += reading.revision;
      if (reading.files === undefined) continue;
      files ??= new Map();
      for (const file of reading.files) files.set(`${file.sha256},${file.label ?? ''}`, file);
    }
    const millionths = divideRounded(sum, sampled.denominator * BILLIONTHS_PER_MILLIONTH);
    const value = decimalOfMillionths(millionths);
    if (files === undefined) return [{ date, value, revision }];
    const ordered = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, file]) => file);
    return [{ date, value, revision, files: ordered }];
  });
};
