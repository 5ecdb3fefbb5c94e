import type { ProgrammeResults, TreatyList } from '@cropcover/contracts';
import { money, period, words } from '../../format';

// The programme's treaties in the order they apply, and its gross, ceded and net for the period.

type Treaty = TreatyList['items'][number];

const share = (ratio: number): string => `${Number((ratio * 100).toFixed(4))} %`;

const termsOf = (treaty: Treaty, currency: string): string => {
  const ratioOrAmount = (value: { ratio: number } | { amount: number }) =>
    'ratio' in value ? `${share(value.ratio)} of the subject premium` : money(value.amount, currency);
  switch (treaty.type) {
    case 'quota_share':
      return `cedes ${share(treaty.cession_rate)} of every premium and claim, ceding commission ${share(treaty.ceding_commission)}`;
    case 'stop_loss':
      return `pays claims above ${ratioOrAmount(treaty.attachment)}, up to ${ratioOrAmount(treaty.limit)}`;
    case 'cat_xl':
      return (
        `pays ${money(treaty.limit, currency)} in excess of ${money(treaty.retention, currency)} per event` +
        (treaty.aggregate_limit === null ? '' : `, ${money(treaty.aggregate_limit, currency)} in all`)
      );
  }
};

export const TreatyTable = ({ treaties, currency }: { treaties: readonly Treaty[]; currency: string }) =>
  treaties.length === 0 ? (
    <p data-treaties="none">No treaty is bound to this programme: it keeps all of its risk.</p>
  ) : (
    // biome-ignore lint/a11y/useSemanticElements: a wrapper of a table, named so its scroll takes the keyboard (axe scrollable-region-focusable)
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to scroll by keyboard
    <div class="table-scroll" role="region" aria-label="Treaties" tabIndex={0}>
      <table data-treaties>
        <caption>Treaties, in the order they apply</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Type</th>
            <th scope="col">Terms</th>
            <th scope="col">Period</th>
            <th scope="col">Reinsurer</th>
          </tr>
        </thead>
        <tbody>
          {treaties.map((treaty) => (
            <tr key={treaty.treaty_id} data-treaty={treaty.treaty_id}>
              <th scope="row">{treaty.inurance_order}</th>
              <td>{words(treaty.type)}</td>
              <td>{termsOf(treaty, currency)}</td>
              <td data-period>{period(treaty.period.from, treaty.period.to)}</td>
              <td>{treaty.reinsurer_organization_id ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );

export const ResultsTable = ({ results }: { results: ProgrammeResults }) => {
  const amount = (value: number) => money(value, results.currency);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a wrapper of a table, named so its scroll takes the keyboard (axe scrollable-region-focusable)
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to scroll by keyboard
    <div class="table-scroll" role="region" aria-label="Gross, ceded and net" tabIndex={0}>
      <table data-results>
        <caption>Gross, ceded and net, {period(results.period.from, results.period.to)}</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col" class="number">
              Premium
            </th>
            <th scope="col" class="number">
              Claims
            </th>
            <th scope="col" class="number">
              Ceding commission
            </th>
          </tr>
        </thead>
        <tbody>
          <tr data-line="gross">
            <th scope="row">Gross</th>
            <td class="number">{amount(results.gross_premium)}</td>
            <td class="number">{amount(results.gross_claims)}</td>
            <td class="number">—</td>
          </tr>
          {results.treaties.map((treaty) => (
            <tr key={treaty.treaty_id} data-line={treaty.treaty_id}>
              <th scope="row">Ceded to {words(treaty.type)}</th>
              <td class="number">−{amount(treaty.ceded_premium)}</td>
              <td class="number">−{amount(treaty.recoveries)}</td>
              <td class="number">{amount(treaty.ceding_commission)}</td>
            </tr>
          ))}
          <tr data-line="net">
            <th scope="row">Net</th>
            <td class="number">{amount(results.net_premium)}</td>
            <td class="number">{amount(results.net_claims)}</td>
            <td class="number">—</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
};
