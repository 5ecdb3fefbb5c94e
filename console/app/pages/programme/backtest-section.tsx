import type { PortfolioBacktestJob } from '@cropcover/contracts';
import { useEffect, useState } from 'preact/hooks';
import { getBacktest, startBacktest } from '../../api/programmes';
import { useResource } from '../../api/use-resource';
import { SeasonChart } from '../../chart/season-chart';
import { calendarDate, money } from '../../format';
import { consolePath, navigate } from '../../router';
import { Loaded } from '../loading';
import { asIfSeasons } from './as-if-seasons';

// The as-if losses of the book: the API computes them as a job (SPEC §7 "Portfolio backtest"). The job's
// id lives in the address, so a computed history can be reloaded and shared; asking for one is the only
// request of the console that is not a GET, and it changes nothing of the book.

const SEASONS = 20;
const POLL_MS = 1000;

export const BacktestSection = ({ programmeId, jobId }: { programmeId: string; jobId: string | undefined }) => (
  <section aria-labelledby="as-if-heading" class="as-if">
    <h2 id="as-if-heading">As-if losses per season</h2>
    {jobId === undefined ? (
      <StartBacktest programmeId={programmeId} />
    ) : (
      <Job programmeId={programmeId} jobId={jobId} />
    )}
  </section>
);

const StartBacktest = ({ programmeId }: { programmeId: string }) => {
  const [refusal, setRefusal] = useState<string | undefined>();
  const [asking, setAsking] = useState(false);
  const start = async () => {
    setAsking(true);
    try {
      const job = await startBacktest(programmeId, SEASONS);
      navigate(consolePath(`/programmes/${encodeURIComponent(programmeId)}`, { backtest: job.job_id }));
    } catch (error) {
      setRefusal((error as Error).message);
      setAsking(false);
    }
  };
  return (
    <>
      <p>
        The book in force today, its frozen term sheets shifted back season by season onto each policy's own data: what
        it would have lost, gross and net of its treaties.
      </p>
      <button type="button" onClick={start} disabled={asking}>
        Compute the last {SEASONS} seasons
      </button>
      {refusal && (
        <p role="alert" class="problem">
          Could not start the backtest: {refusal}
        </p>
      )}
    </>
  );
};

const Job = ({ programmeId, jobId }: { programmeId: string; jobId: string }) => {
  const [round, setRound] = useState(0);
  const job = useResource(`${jobId}#${round}`, (signal) => getBacktest(programmeId, jobId, signal));
  const pending = job.state === 'loaded' && (job.value.status === 'queued' || job.value.status === 'running');
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setRound((next) => next + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, round]);
  return (
    <Loaded resource={job} what="the backtest">
      {(value) => <JobResult job={value} />}
    </Loaded>
  );
};

const JobResult = ({ job }: { job: PortfolioBacktestJob }) => {
  if (job.status === 'failed')
    return (
      <p role="alert" class="problem">
        The backtest failed: {job.error?.detail ?? 'no reason given'}
      </p>
    );
  if (job.result === undefined)
    return (
      <p role="status" class="status" data-backtest-status={job.status}>
        The backtest of {job.seasons} seasons is {job.status}…
      </p>
    );
  const { result } = job;
  const seasons = asIfSeasons(result, job.as_of);
  const amount = (value: number) => money(value, result.currency);
  return (
    <div data-backtest={job.job_id}>
      <p>
        {result.policies.toLocaleString()} policies in force on {calendarDate(job.as_of)},{' '}
        {amount(result.total_sum_insured)} insured: an average annual loss of {amount(result.gross.average_annual_loss)}{' '}
        gross (loss cost {(result.gross.loss_cost * 100).toFixed(2)} %), {amount(result.net.average_annual_loss)} net.
      </p>
      <SeasonChart
        model={{
          id: 'as-if-seasons',
          title: `As-if loss per season, ${result.currency}`,
          description:
            `Gross and net loss of each of ${seasons.seasons.length} past seasons, oldest first, with the average ` +
            `annual loss gross (${amount(seasons.averageGross)}) and net (${amount(seasons.averageNet)}).`,
          unit: result.currency,
          series: [
            { kind: 'gross', label: 'gross loss' },
            { kind: 'net', label: 'net of treaties' },
          ],
          bars: seasons.seasons.map((season) => ({
            key: String(season.yearsBack),
            label: String(season.year),
            values: [season.gross, season.net],
            complete: season.complete,
          })),
          averages: [
            { kind: 'gross', label: `average gross ${amount(seasons.averageGross)}`, value: seasons.averageGross },
            { kind: 'net', label: `average net ${amount(seasons.averageNet)}`, value: seasons.averageNet },
          ],
        }}
      />
      {/* biome-ignore lint/a11y/useSemanticElements: a wrapper of a table, named so its scroll takes the keyboard (axe scrollable-region-focusable) */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to scroll by keyboard */}
      <div class="table-scroll" role="region" aria-label="As-if loss per season" tabIndex={0}>
        <table data-seasons>
          <caption>As-if loss per season, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Season</th>
              <th scope="col" class="number">
                Gross
              </th>
              <th scope="col" class="number">
                Net
              </th>
              <th scope="col">Data</th>
            </tr>
          </thead>
          <tbody>
            {seasons.seasons.map((season) => (
              <tr key={season.yearsBack}>
                <th scope="row">
                  {season.year} ({season.yearsBack} back)
                </th>
                <td class="number">{amount(season.gross)}</td>
                <td class="number">{amount(season.net)}</td>
                <td>{season.complete ? 'complete' : 'incomplete'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
};
