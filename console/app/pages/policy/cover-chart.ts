import type { TriggerCourse, TriggerCoursePhase, TriggerEvaluationHistoryItem } from '@cropcover/contracts';
import type { Band, Marker, TimeChartModel } from '../../chart/time-chart-model';
import { figure, money, words } from '../../format';

// A cover as charts: its daily readings (right axis), its aggregate day by day, its trigger and exit over
// its window, and what the evaluations found, paid and recorded as overpaid, on one time axis. A cover of
// several phases is one chart per phase, each over the cover's whole window (so the charts line up day for
// day) with the phase's own window shaded, its own levels, its own index and what its evaluations found.

const breach = (comparison: TriggerCourse['comparison']) => (comparison === 'lte' ? 'at or below' : 'at or above');

const evaluationMarker = (
  evaluation: TriggerEvaluationHistoryItem,
  observed: number,
  breached: boolean,
  severity: string,
): Marker => ({
  kind: 'evaluation',
  date: evaluation.as_of,
  value: observed,
  label: `Evaluated as of ${evaluation.as_of}: ${figure(observed)}, ${breached ? `breached${severity}` : 'not breached'}`,
  data: { evaluation: evaluation.evaluation_id },
});

const payoutMarker = (evaluation: TriggerEvaluationHistoryItem, note = ''): Marker[] =>
  evaluation.payout
    ? [
        {
          kind: 'payout',
          date: evaluation.as_of,
          label: `Payout of ${money(evaluation.payout.amount, evaluation.payout.currency)} (${evaluation.payout.status})${note}`,
          data: {
            amount: evaluation.payout.amount,
            currency: evaluation.payout.currency,
            payout: evaluation.payout.payout_id,
          },
        },
      ]
    : [];

const overpaymentMarker = (evaluation: TriggerEvaluationHistoryItem): Marker[] =>
  evaluation.overpayment
    ? [
        {
          kind: 'overpayment',
          date: evaluation.as_of,
          label: `Overpaid by ${money(evaluation.overpayment.difference, evaluation.overpayment.currency)}`,
          data: { difference: evaluation.overpayment.difference, currency: evaluation.overpayment.currency },
        },
      ]
    : [];

const readingSeries = (course: TriggerCourse) => ({
  id: 'reading',
  label: `Daily ${course.reading}`,
  axis: 'right' as const,
  style: 'bars' as const,
  points: course.days.map((day) => ({ date: day.date, value: day.value })),
});

const levels = (trigger: number | undefined, exit: number | undefined): Band['lines'] => [
  ...(trigger === undefined ? [] : [{ kind: 'trigger', label: `trigger ${figure(trigger)}`, value: trigger }]),
  ...(exit === undefined || exit === trigger ? [] : [{ kind: 'exit', label: `exit ${figure(exit)}`, value: exit }]),
];

/** A cover of one phase: its window is the phase's. */
const singlePhaseChart = (
  course: TriggerCourse,
  evaluations: readonly TriggerEvaluationHistoryItem[],
): TimeChartModel => ({
  id: `cover-${course.peril}`,
  title: `${words(course.peril)}: ${course.trigger_index} against its trigger and exit`,
  description:
    `Daily ${course.reading} of ${course.data_source.source_id} at ${course.data_source.location} from ` +
    `${course.window_start} to ${course.window_end}, the aggregate ${course.trigger_index} so far on each day, ` +
    `the trigger at ${course.trigger} and the exit at ${course.exit} (breach when ` +
    `${breach(course.comparison)} the trigger), and ${evaluations.length} evaluations.`,
  from: course.window_start,
  to: course.window_end,
  axes: { left: course.trigger_index, right: `${course.reading} per day` },
  series: [
    readingSeries(course),
    {
      id: 'aggregate',
      label: course.trigger_index,
      axis: 'left',
      style: 'line',
      points: course.days.map((day) => ({ date: day.date, value: day.observed_value })),
    },
  ],
  bands: [
    {
      id: 'window',
      label: `Window ${course.window_start} – ${course.window_end}`,
      from: course.window_start,
      to: course.window_end,
      // The exit line is drawn even where it equals the trigger: every cover of one phase shows both.
      lines: [
        { kind: 'trigger', label: `trigger ${figure(course.trigger)}`, value: course.trigger },
        { kind: 'exit', label: `exit ${figure(course.exit)}`, value: course.exit },
      ],
    },
  ],
  markers: [...evaluations]
    .reverse()
    .flatMap((evaluation) => [
      evaluationMarker(
        evaluation,
        evaluation.observed_value,
        evaluation.breached,
        evaluation.breached ? `, severity ${evaluation.severity}` : '',
      ),
      ...payoutMarker(evaluation),
      ...overpaymentMarker(evaluation),
    ]),
});

/** Each evaluation's figures for one phase, oldest first, with what the phase was due before it: a payout
 *  belongs to the phases whose amount due rose, an overpayment to those whose amount due fell. */
const phaseHistory = (phase: string, evaluations: readonly TriggerEvaluationHistoryItem[]) => {
  let before = 0;
  return [...evaluations].reverse().flatMap((evaluation) => {
    const found = evaluation.phases?.find((candidate) => candidate.phase === phase);
    if (found === undefined) return [];
    const change = found.amount_due - before;
    before = found.amount_due;
    return [{ evaluation, phase: found, change }];
  });
};

const phaseMarkers = (
  phase: string,
  evaluations: readonly TriggerEvaluationHistoryItem[],
  currency: string,
): Marker[] =>
  phaseHistory(phase, evaluations).flatMap(({ evaluation, phase: found, change }) => {
    const due = `due ${money(found.amount_due, currency)}`;
    return [
      ...(found.observed_value === undefined
        ? []
        : [evaluationMarker(evaluation, found.observed_value, found.breached, found.breached ? `, ${due}` : '')]),
      ...(change > 0 ? payoutMarker(evaluation, ` for the cover; this phase is now ${due}`) : []),
      ...(change < 0 ? overpaymentMarker(evaluation) : []),
    ];
  });

const phaseChart = (
  course: TriggerCourse,
  phase: TriggerCoursePhase,
  evaluations: readonly TriggerEvaluationHistoryItem[],
  currency: string,
): TimeChartModel => {
  const window =
    phase.window_start === undefined || phase.window_end === undefined
      ? 'its window not known yet (it waits for the sowing date)'
      : `its window ${phase.window_start} to ${phase.window_end}`;
  return {
    id: `cover-${course.peril}-phase-${phase.phase}`,
    title: `${words(course.peril)}, phase ${phase.phase}: its ${course.trigger_index} against its trigger and exit`,
    description:
      `Daily ${course.reading} of ${course.data_source.source_id} at ${course.data_source.location} from ` +
      `${course.window_start} to ${course.window_end}; phase ${phase.phase}, ${window}: its index so far on each ` +
      `day, the trigger at ${figure(phase.trigger)}${phase.exit === undefined ? '' : ` and the exit at ${figure(phase.exit)}`} ` +
      `(breach when ${breach(phase.comparison)} the trigger), and what each evaluation found for it.`,
    from: course.window_start,
    to: course.window_end,
    axes: { left: `${course.trigger_index} (${phase.phase})`, right: `${course.reading} per day` },
    series: [
      readingSeries(course),
      {
        id: 'aggregate',
        label: `${course.trigger_index} of phase ${phase.phase}`,
        axis: 'left',
        style: 'line',
        points: phase.days.map((day) => ({ date: day.date, value: day.observed_value })),
      },
    ],
    bands:
      phase.window_start === undefined || phase.window_end === undefined
        ? []
        : [
            {
              id: `phase-${phase.phase}`,
              label: `Phase ${phase.phase} ${phase.window_start} – ${phase.window_end}`,
              from: phase.window_start,
              to: phase.window_end,
              lines: levels(phase.trigger, phase.exit),
            },
          ],
    markers: phaseMarkers(phase.phase, evaluations, currency),
  };
};

/** The charts of a cover: one, or one per phase; amounts in the policy's currency. */
export const coverCharts = (
  course: TriggerCourse,
  evaluations: readonly TriggerEvaluationHistoryItem[],
  currency: string,
): TimeChartModel[] =>
  course.phases === undefined
    ? [singlePhaseChart(course, evaluations)]
    : course.phases.map((phase) => phaseChart(course, phase, evaluations, currency));
