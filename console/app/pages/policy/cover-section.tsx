import type {
  ReadingsFile,
  TriggerCourse,
  TriggerCoursePhase,
  TriggerEvaluationHistoryItem,
  TriggerStatus,
} from '@cropcover/contracts';
import { TimeChart } from '../../chart/time-chart';
import { calendarDate, figure, money, period, timestamp, words } from '../../format';
import { coverCharts } from './cover-chart';

const breachWords = (comparison: TriggerCourse['comparison']) => (comparison === 'lte' ? 'at or below' : 'at or above');

/** One cover: where its data comes from and how much of the window it covers, its chart (one per phase
 *  when it has several), and its evaluations. */
export const CoverSection = ({
  course,
  trigger,
  evaluations,
  currency,
}: {
  course: TriggerCourse;
  trigger: TriggerStatus | undefined;
  evaluations: readonly TriggerEvaluationHistoryItem[];
  currency: string;
}) => {
  const headingId = `cover-${course.peril}-heading`;
  const source = course.data_source;
  return (
    <section class="cover" aria-labelledby={headingId} data-cover={course.peril}>
      <h2 id={headingId}>{words(course.peril)}</h2>
      <dl class="summary">
        <dt>Index</dt>
        <dd>
          {course.trigger_index} of daily {course.reading}
        </dd>
        {course.phases === undefined ? (
          <>
            <dt>Trigger and exit</dt>
            <dd>
              breach {breachWords(course.comparison)} {figure(course.trigger)}; severity 1 at {figure(course.exit)}
            </dd>
          </>
        ) : (
          <>
            <dt>Phases</dt>
            <dd>
              <PhaseList peril={course.peril} phases={course.phases} />
            </dd>
          </>
        )}
        <dt>Data source</dt>
        <dd data-source={source.source_id} data-location={source.location}>
          {source.source_id} ({source.kind}) at {source.location}
          {source.distance_km !== undefined && `, ${source.distance_km} km away`}
        </dd>
        <dt>Data product</dt>
        <dd data-product={source.product?.name ?? ''}>
          {source.product
            ? `${source.product.name}${source.product.version ? ` ${source.product.version}` : ''}`
            : 'not named'}
          {source.unit && `, in ${source.unit}`}
          {source.cadence && source.cadence !== 'daily' && `, ${source.cadence.replaceAll('_', '-')} values`}
        </dd>
        <dt>Files behind the values</dt>
        <dd data-files={course.peril}>
          <DataFiles files={trigger?.files} />
        </dd>
        <dt>Coverage</dt>
        <dd>
          {trigger?.coverage
            ? `${trigger.coverage.days_with_reading} of ${trigger.coverage.days_in_window} days have a reading`
            : trigger?.skipped_reason
              ? words(trigger.skipped_reason)
              : 'window not open yet'}
        </dd>
        <dt>Aggregate today</dt>
        <dd>{figure(trigger?.current_index_reading)}</dd>
      </dl>
      {coverCharts(course, evaluations, currency).map((model) => (
        <TimeChart key={model.id} model={model} />
      ))}
      <EvaluationTable peril={course.peril} evaluations={evaluations} />
    </section>
  );
};

/** The files the values of today's aggregate came from, each by its SHA-256 (the name an auditor finds
 *  it under among the kept files) and release. */
const DataFiles = ({ files }: { files: readonly ReadingsFile[] | undefined }) =>
  files === undefined ? (
    <>no values read yet</>
  ) : files.length === 0 ? (
    <>none: every value was posted through the readings API</>
  ) : (
    <ul class="data-files">
      {files.map((file) => (
        <li key={`${file.sha256} ${file.label ?? ''}`} data-file-sha256={file.sha256}>
          <code>sha256:{file.sha256}</code> ({file.label ?? 'unlabelled'}), {file.values}{' '}
          {file.values === 1 ? 'value' : 'values'}
        </li>
      ))}
    </ul>
  );

const PhaseList = ({ peril, phases }: { peril: string; phases: readonly TriggerCoursePhase[] }) => (
  <ol class="phases" data-phases={peril}>
    {phases.map((phase) => (
      <li key={phase.phase} data-phase={phase.phase}>
        <strong>{phase.phase}</strong>:{' '}
        {phase.window_start === undefined ? 'window not known yet' : period(phase.window_start, phase.window_end!)}
        {phase.trigger !== undefined && `, breach ${breachWords(phase.comparison)} ${figure(phase.trigger)}`}
        {phase.exit !== undefined && `, severity 1 at ${figure(phase.exit)}`}
      </li>
    ))}
  </ol>
);

const EvaluationTable = ({
  peril,
  evaluations,
}: {
  peril: string;
  evaluations: readonly TriggerEvaluationHistoryItem[];
}) =>
  evaluations.length === 0 ? (
    <p>No evaluation recorded yet.</p>
  ) : (
    <div class="table-scroll">
      <table data-evaluations={peril}>
        <caption>Evaluations of {words(peril)}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">As of</th>
            <th scope="col">Evaluated</th>
            <th scope="col" class="number">
              Observed
            </th>
            <th scope="col">Breached</th>
            <th scope="col" class="number">
              Severity
            </th>
            <th scope="col">Payout</th>
            <th scope="col">Overpayment</th>
          </tr>
        </thead>
        <tbody>
          {evaluations.map((evaluation) => (
            <tr key={evaluation.evaluation_id}>
              <th scope="row">{calendarDate(evaluation.as_of)}</th>
              <td>{timestamp(evaluation.evaluated_at)}</td>
              <td class="number">{figure(evaluation.observed_value)}</td>
              <td>{evaluation.breached ? 'yes' : 'no'}</td>
              <td class="number">{figure(evaluation.severity)}</td>
              <td>
                {evaluation.payout
                  ? `${money(evaluation.payout.amount, evaluation.payout.currency)} (${evaluation.payout.status})`
                  : '—'}
              </td>
              <td>
                {evaluation.overpayment
                  ? `${money(evaluation.overpayment.difference, evaluation.overpayment.currency)} over`
                  : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
