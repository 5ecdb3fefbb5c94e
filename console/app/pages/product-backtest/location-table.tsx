import type { LocationBacktest, ProductBacktestJob } from '@cropcover/contracts';
import { consolePath, Link } from '../../router';
import { amountText, ofPairs, shareText } from './backtest-results';

type JobResult = NonNullable<ProductBacktestJob['result']>;

/** A row per location of the page, in the order asked: its statistics over the seasons counted, and its
 *  basis risk when losses were observed. A location's name opens its seasons below. */
export const LocationTable = ({
  job,
  result,
  selected,
}: {
  job: ProductBacktestJob;
  result: JobResult;
  selected: LocationBacktest | undefined;
}) => {
  const withBasisRisk = result.summary.basis_risk !== undefined;
  const pages = Math.max(1, Math.ceil(result.summary.locations / result.page_size));
  const jobPath = `/products/backtests/${encodeURIComponent(job.job_id)}`;
  return (
    <>
      {/* biome-ignore lint/a11y/useSemanticElements: a wrapper of a table, named so its scroll takes the keyboard (axe scrollable-region-focusable) */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to scroll by keyboard */}
      <div class="table-scroll" role="region" aria-label="Results per location" tabIndex={0}>
        <table data-locations>
          <caption>Results per location, over the seasons counted</caption>
          <thead>
            <tr>
              <th scope="col">Location</th>
              <th scope="col" class="number">
                Seasons counted
              </th>
              <th scope="col" class="number">
                Average loss cost
              </th>
              <th scope="col" class="number">
                Payout frequency
              </th>
              <th scope="col">Worst season</th>
              {withBasisRisk && (
                <>
                  <th scope="col" class="number">
                    Spearman ρ
                  </th>
                  <th scope="col">Unpaid losses</th>
                  <th scope="col">Payouts without a loss</th>
                </>
              )}
            </tr>
          </thead>
          <tbody>
            {result.locations.map((location) => (
              <tr
                key={`${location.source_id}|${location.location}`}
                data-location={location.location}
                data-source={location.source_id}
                data-status={location.status}
                class={location === selected ? 'selected' : undefined}
              >
                <th scope="row">
                  <Link
                    href={consolePath(jobPath, {
                      page: result.page === 1 ? undefined : result.page,
                      source: location.source_id,
                      location: location.location,
                    })}
                    current={location === selected}
                  >
                    {location.location}
                  </Link>{' '}
                  <span class="muted">({location.source_id})</span>
                </th>
                <Statistics job={job} location={location} withBasisRisk={withBasisRisk} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav class="pagination" aria-label="Pages of locations">
          {result.page > 1 ? (
            <Link href={consolePath(jobPath, { page: result.page - 1 })}>Previous page</Link>
          ) : (
            <span>Previous page</span>
          )}
          <span data-page={result.page} data-pages={pages}>
            Page {result.page} of {pages}
          </span>
          {result.page < pages ? (
            <Link href={consolePath(jobPath, { page: result.page + 1 })}>Next page</Link>
          ) : (
            <span>Next page</span>
          )}
        </nav>
      )}
    </>
  );
};

const Statistics = ({
  job,
  location,
  withBasisRisk,
}: {
  job: ProductBacktestJob;
  location: LocationBacktest;
  withBasisRisk: boolean;
}) => {
  const { statistics, basis_risk: risk } = location;
  if (location.status === 'skipped' || statistics === null)
    return (
      <td colSpan={withBasisRisk ? 7 : 4}>
        {location.status === 'skipped'
          ? `Skipped: ${location.skip_reason?.detail ?? 'no reason given'}`
          : 'No season counted'}
      </td>
    );
  const worst = statistics.worst_season;
  return (
    <>
      <td class="number">{statistics.seasons_counted}</td>
      <td class="number" data-average-loss-cost={statistics.average_loss_cost}>
        {shareText(statistics.average_loss_cost)}
        {job.currency !== undefined && statistics.average_payout != null && (
          <> ({amountText(job, statistics.average_loss_cost ?? 0, statistics.average_payout)})</>
        )}
      </td>
      <td class="number" data-payout-frequency={statistics.payout_frequency}>
        {shareText(statistics.payout_frequency)}
      </td>
      <td data-worst-season={worst?.season}>
        {worst === null ? '—' : `${worst.season}: ${amountText(job, worst.payout_share, worst.payout)}`}
      </td>
      {withBasisRisk &&
        (risk === undefined || risk.pairs === 0 ? (
          <td colSpan={3}>No season counted has an observed loss</td>
        ) : (
          <>
            <td class="number" data-spearman={risk.spearman ?? ''}>
              {risk.spearman === null ? '—' : risk.spearman.toFixed(3)}
            </td>
            <td data-false-negatives={risk.false_negatives}>
              {ofPairs(risk.false_negatives, risk.pairs, risk.false_negative_frequency)}
            </td>
            <td data-false-positives={risk.false_positives}>
              {ofPairs(risk.false_positives, risk.pairs, risk.false_positive_frequency)}
            </td>
          </>
        ))}
    </>
  );
};
