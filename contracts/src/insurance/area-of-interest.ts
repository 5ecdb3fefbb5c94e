import { DateTime } from '../common';
import { z } from '../zod';

// INDEX-DATA.md §2.2: the area a grid source keeps readings for beyond the cells its policies, quotes and
// zones read: a bounding box or a list of cells, registered by the source's owner.

/** The most cells an area of interest may name or cover: a continent at 0.25°, a country at 0.05°. */
export const MAX_AREA_OF_INTEREST_CELLS = 100_000;

const Longitude = z.number().min(-180).max(180);
const Latitude = z.number().min(-90).max(90);

export const AreaOfInterest = z
  .union([
    z.strictObject({
      /** [west, south, east, north] in degrees: the cells whose centres lie inside, edges included. */
      bbox: z
        .tuple([Longitude, Latitude, Longitude, Latitude])
        .refine(([west, , east]) => west <= east, { message: 'west must not exceed east' })
        .refine(([, south, , north]) => south <= north, { message: 'south must not exceed north' }),
    }),
    z.strictObject({
      /** Cells by any point of them, "lat,lon" (a cell's id is its south-west corner). */
      cells: z.array(z.string().max(80)).min(1).max(MAX_AREA_OF_INTEREST_CELLS),
    }),
  ])
  .openapi('AreaOfInterest');
export type AreaOfInterest = z.infer<typeof AreaOfInterest>;

export const IndexSourceUpdateRequest = z
  .strictObject({ area_of_interest: AreaOfInterest })
  .openapi('IndexSourceUpdateRequest');
export type IndexSourceUpdateRequest = z.infer<typeof IndexSourceUpdateRequest>;

export const IndexSourceAreaOfInterest = z
  .object({
    source_id: z.string(),
    area_of_interest: AreaOfInterest,
    /** The cells the source now keeps readings for: its area's and those its policies and quotes read. */
    cells_of_interest: z.number().int(),
    /** Of the area's cells, those whose history is still being read from the kept files. */
    cells_backfilling: z.number().int(),
    set_at: DateTime,
  })
  .openapi('IndexSourceAreaOfInterest');
export type IndexSourceAreaOfInterest = z.infer<typeof IndexSourceAreaOfInterest>;
