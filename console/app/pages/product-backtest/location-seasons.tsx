import type { LocationBacktest, ProductBacktestJob } from '@cropcover/contracts';
import { SeasonChart } from '../../chart/season-chart';
import { figure, period, words } from '../../format';
import { amountDueChart, amountText, shareText } from './backtest-results';

/** The chosen location season by season: a chart of what it was due, and a table of each cover's index,
 *  amount due and data, with what the season paid within the sheet's limit. */
export const LocationSeasons = ({ job, location }: { job: ProductBacktestJob; location: LocationBacktest }) => {
  const headingId = 'location-seasons-heading';
  return (
    <section aria-labelledby={headingId} data-location-seasons={location.location}>
      <h2 id={headingId}>
        Seasons at {location.location} ({location.source_id})
      </h2>
      {location.status === 'skipped' ? (
        <p>No season was read: {location.skip_reason?.detail ?? 'no reason given'}</p>
      ) : (
        <>
          <SeasonChart model={amountDueChart(job, location)} />
          <SeasonTable job={job} location={location} />
        </>
      )}
    </section>
  );
};

const SeasonTable = ({ job, location }: { job: ProductBacktestJob; location: LocationBacktest }) => (
  // biome-ignore lint/a11y/useSemanticElements: a wrapper of a table, named so its scroll takes the keyboard (axe scrollable-region-focusable)
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to scroll by keyboard
  <div class="table-scroll" role="region" aria-label="Seasons of the location" tabIndex={0}>
    <table data-seasons>
      <caption>Each season and cover, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Season</th>
          <th scope="col">Cover</th>
          <th scope="col">Phase</th>
          <th scope="col" class="number">
            Index
          </th>
          <th scope="col" class="number">
            Amount due
          </th>
          <th scope="col">Data</th>
          <th scope="col" class="number">
            Season paid
          </th>
        </tr>
      </thead>
      <tbody>
        {[...location.seasons]
          .sort((a, b) => a.season - b.season)
          .flatMap((season) =>
            season.covers.map((cover, at) => (
              <tr key={`${season.season}|${cover.peril}`} data-season={season.season} data-peril={cover.peril}>
                {at === 0 && (
                  <th scope="row" rowSpan={season.covers.length}>
                    {season.season}
                    <br />
                    <span class="muted">{period(season.season_start, season.season_end)}</span>
                  </th>
                )}
                <td>{words(cover.peril)}</td>
                <td>{cover.phase ?? '—'}</td>
                <td class="number" data-index={cover.index ?? ''}>
                  {figure(cover.index)}
                </td>
                <td class="number" data-amount-due-share={cover.amount_due_share}>
                  {amountText(job, cover.amount_due_share, cover.amount_due)}
                </td>
                <td data-status={cover.status}>
                  {cover.status === 'complete' ? 'complete' : words(cover.status).toLowerCase()},{' '}
                  {shareText(cover.coverage)} read
                </td>
                {at === 0 && (
                  <td class="number" rowSpan={season.covers.length} data-payout-share={season.payout_share}>
                    {amountText(job, season.payout_share, season.payout)}
                    {season.counted ? '' : ' (not counted)'}
                  </td>
                )}
              </tr>
            )),
          )}
      </tbody>
    </table>
  </div>
);
