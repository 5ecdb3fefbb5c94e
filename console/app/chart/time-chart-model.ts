// What a time chart shows, independent of any one page: series of daily values on a left or right axis,
// bands (a window of days, such as a phase of a cover, with its own horizontal level lines on the left
// axis) and markers (things that happened on a date). A cover of today's products is one band; a
// multi-phase cover is one band per phase.

export type Axis = 'left' | 'right';

export interface DailyValue {
  readonly date: string;
  readonly value: number | null;
}

export interface Series {
  readonly id: string;
  readonly label: string;
  readonly axis: Axis;
  readonly style: 'bars' | 'line';
  readonly points: readonly DailyValue[];
}

export interface LevelLine {
  /** What the line is, e.g. `trigger` or `exit`: also its look and its data-level attribute. */
  readonly kind: string;
  readonly label: string;
  readonly value: number;
}

export interface Band {
  readonly id: string;
  readonly label: string;
  readonly from: string;
  readonly to: string;
  readonly lines: readonly LevelLine[];
}

export interface Marker {
  /** E.g. `evaluation`, `payout`, `overpayment`: also its look and its data-marker attribute. */
  readonly kind: string;
  readonly date: string;
  /** Where on the left axis it sits; absent: it marks the whole day (a flag at the top). */
  readonly value?: number;
  readonly label: string;
  /** Extra data attributes for whoever reads the chart's markup (tests, scripts). */
  readonly data?: Readonly<Record<string, string | number>>;
}

export interface TimeChartModel {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly from: string;
  readonly to: string;
  readonly axes: { readonly left: string; readonly right?: string };
  readonly series: readonly Series[];
  readonly bands: readonly Band[];
  readonly markers: readonly Marker[];
}
