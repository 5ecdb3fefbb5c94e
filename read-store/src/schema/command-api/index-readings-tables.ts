import type { ColumnType, Generated } from 'kysely';
import type { CalendarDateColumn } from '../../calendar-date-column';
import type { NullableTimestamp, Timestamp } from '../../columns';

// Index readings are reference data the command API writes directly (not events): SPEC §7 makes every
// TriggerEvaluated carry a digest of what it used, so policy history replays without these tables, and
// a rebuild of the projections leaves them alone.

/** The current value of each reading of a source at a location (station id, grid cell or field).
 *  `value` is double precision: the API receives JSON numbers, which are doubles already, and PostgreSQL
 *  prints a double in its shortest round-trip form, so the value read back is the very number sent. */
export interface IndexReadingsTable {
  source_id: string;
  location: string;
  index: string;
  /** Read it through `calendarDateOf`: node-postgres would turn it into a shifted Date. */
  date: CalendarDateColumn;
  value: number;
  /** The provider's free-text label of the reading (e.g. its instrument); informational only. */
  note: string | null;
  /** 1 when first recorded, +1 each time a different value or note replaces it. */
  revision: number;
  recorded_at: Timestamp;
  /** The token subject that wrote it; null for readings carried over from before sources. */
  recorded_by: string | null;
  /** The release of the file it came from (`?label=`: prelim, final); null when posted or unlabelled. */
  label: string | null;
  /** Hex SHA-256 of the file it came from (`DATA_DIR/index-files/<sha256>`); null when posted. */
  file_sha256: string | null;
}

/** Every value a reading had before it was replaced, with the revision it had then. */
export interface IndexReadingRevisionsTable {
  source_id: string;
  location: string;
  index: string;
  date: CalendarDateColumn;
  revision: number;
  value: number;
  note: string | null;
  recorded_at: Timestamp;
  recorded_by: string | null;
  label: string | null;
  file_sha256: string | null;
  replaced_at: Timestamp;
}

/** A value that changes in the very transaction that changes any reading of the location (triggers on
 *  `index_readings`, migration 0015): a cache of the location's history is current while it is unchanged.
 *  Only equality means anything; a location that never had a reading has no row. */
export interface IndexReadingVersionsTable {
  source_id: string;
  location: string;
  version: bigint;
}

/** Each file ingested into a source (INDEX-DATA.md §2.1), kept under `DATA_DIR/index-files/<sha256>`:
 *  what it was asked to read, and what it wrote. Backfilling a new location reads them again in order. */
export interface IndexFileIngestionsTable {
  ingestion_id: string;
  source_id: string;
  sha256: string;
  content_type: string;
  label: string | null;
  /** `?date=`/`?dates=` as given, for a GeoTIFF. */
  dates: string[] | null;
  variable: string | null;
  /** bigint: node-postgres gives it back as text. */
  bytes: ColumnType<string, number, number>;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  periods: Generated<number>;
  locations: Generated<number>;
  readings_written: Generated<number>;
  revisions_written: Generated<number>;
  missing: Generated<number>;
  error: ColumnType<IngestionError | null, string | null, string | null>;
  requested_by: string;
  received_at: Timestamp;
  finished_at: NullableTimestamp;
  /** Whether the file's every cell was kept (the source had no location of interest) or only those. */
  kept: ColumnType<IngestionKept, IngestionKept | undefined, IngestionKept>;
  /** The process running it, until `leased_until`; renewed while it runs. */
  lease_id: string | null;
  leased_until: NullableTimestamp;
  /** How many times a process took it up. */
  attempts: Generated<number>;
}

export type IngestionKept = 'every_cell' | 'cells_of_interest';

/** The area a grid source's owner registered (INDEX-DATA §2.2): a bbox or a list of cells, as sent. */
export interface IndexSourceAreasOfInterestTable {
  source_id: string;
  area: ColumnType<AreaOfInterestRow, string, string>;
  set_by: string;
  set_at: Timestamp;
}

export type AreaOfInterestRow = { bbox: [number, number, number, number] } | { cells: string[] };

/** A cell a grid source keeps readings for; `held_at` once every file kept before it has been read for it. */
export interface IndexCellsOfInterestTable {
  source_id: string;
  cell: string;
  since: Timestamp;
  held_at: NullableTimestamp;
}

export interface IngestionError {
  code: string;
  detail: string;
  errors?: { path: string; message: string }[];
}

export interface IndexReadingsTables {
  index_cells_of_interest: IndexCellsOfInterestTable;
  index_file_ingestions: IndexFileIngestionsTable;
  index_source_areas_of_interest: IndexSourceAreasOfInterestTable;
  index_readings: IndexReadingsTable;
  index_reading_revisions: IndexReadingRevisionsTable;
  index_reading_versions: IndexReadingVersionsTable;
}
