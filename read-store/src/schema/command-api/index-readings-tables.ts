import type { CalendarDateColumn } from '../../calendar-date-column';
import type { Timestamp } from '../../columns';

// Index readings are reference data the command API writes directly (not events): SPEC §7 makes every
// TriggerEvaluated carry what it used, so policy history replays without these tables, and a rebuild of
// the projections leaves them alone.

/** The current value of each reading. `value` is double precision: the API receives JSON numbers,
 *  which are doubles already, and PostgreSQL prints a double in its shortest round-trip form, so the
 *  value read back is the very number that was sent. */
export interface IndexReadingsTable {
  farm_id: string;
  field_id: string;
  index: string;
  /** Read it through `calendarDateOf`: node-postgres would turn it into a shifted Date. */
  date: CalendarDateColumn;
  value: number;
  source: string | null;
  /** 1 when first recorded, +1 each time a different value or source replaces it. */
  revision: number;
  recorded_at: Timestamp;
}

/** Every value a reading had before it was replaced, with the revision it had then. */
export interface IndexReadingRevisionsTable {
  farm_id: string;
  field_id: string;
  index: string;
  date: CalendarDateColumn;
  revision: number;
  value: number;
  source: string | null;
  recorded_at: Timestamp;
  replaced_at: Timestamp;
}

export interface IndexReadingsTables {
  index_readings: IndexReadingsTable;
  index_reading_revisions: IndexReadingRevisionsTable;
}
