import type { TriggerCourse, TriggerEvaluationHistoryItem } from '@cropcover/contracts';
import type { Marker, TimeChartModel } from '../../chart/time-chart-model';
import { figure, money, words } from '../../format';

// A cover as a chart: its daily readings (right axis), its aggregate day by day, its trigger and exit
// over its window, and what the evaluations found, paid and recorded as overpaid, on one time axis.

const evaluationMarkers = (evaluation: TriggerEvaluationHistoryItem): Marker[] => {
  const markers: Marker[] = [
    {
      kind: 'evaluation',
      date: evaluation.as_of,
      value: evaluation.observed_value,
      label: `Evaluated as of ${evaluation.as_of}: ${figure(evaluation.observed_value)}, ${
        evaluation.breached ? `breached, severity ${evaluation.severity}` : 'not breached'
      }`,
      data: { evaluation: evaluation.evaluation_id },
    },
  ];
  if (evaluation.payout)
    markers.push({
      kind: 'payout',
      date: evaluation.as_of,
      label: `Payout of ${money(evaluation.payout.amount, evaluation.payout.currency)} (${evaluation.payout.status})`,
      data: {
        amount: evaluation.payout.amount,
        currency: evaluation.payout.currency,
        payout: evaluation.payout.payout_id,
      },
    });
  if (evaluation.overpayment)
    markers.push({
      kind: 'overpayment',
      date: evaluation.as_of,
      label: `Overpaid by ${money(evaluation.overpayment.difference, evaluation.overpayment.currency)}`,
      data: { difference: evaluation.overpayment.difference, currency: evaluation.overpayment.currency },
    });
  return markers;
};

export const coverChart = (
  course: TriggerCourse,
  evaluations: readonly TriggerEvaluationHistoryItem[],
): TimeChartModel => ({
  id: `cover-${course.peril}`,
  title: `${words(course.peril)}: ${course.trigger_index} against its trigger and exit`,
  description:
    `Daily ${course.reading} of ${course.data_source.source_id} at ${course.data_source.location} from ` +
    `${course.window_start} to ${course.window_end}, the aggregate ${course.trigger_index} so far on each day, ` +
    `the trigger at ${course.trigger} and the exit at ${course.exit} (breach when ` +
    `${course.comparison === 'lte' ? 'at or below' : 'at or above'} the trigger), and ${evaluations.length} evaluations.`,
  from: course.window_start,
  to: course.window_end,
  axes: { left: course.trigger_index, right: `${course.reading} per day` },
  series: [
    {
      id: 'reading',
      label: `Daily ${course.reading}`,
      axis: 'right',
      style: 'bars',
      points: course.days.map((day) => ({ date: day.date, value: day.value })),
    },
    {
      id: 'aggregate',
      label: course.trigger_index,
      axis: 'left',
      style: 'line',
      points: course.days.map((day) => ({ date: day.date, value: day.observed_value })),
    },
  ],
  // Today's covers have one phase, their whole window.
  bands: [
    {
      id: 'window',
      label: `Window ${course.window_start} – ${course.window_end}`,
      from: course.window_start,
      to: course.window_end,
      lines: [
        { kind: 'trigger', label: `trigger ${figure(course.trigger)}`, value: course.trigger },
        { kind: 'exit', label: `exit ${figure(course.exit)}`, value: course.exit },
      ],
    },
  ],
  markers: [...evaluations].reverse().flatMap(evaluationMarkers),
});
