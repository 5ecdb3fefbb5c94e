import type { Cover, ProductVersion, TermSheet } from '@cropcover/contracts';
import { drawPayoutCurve, getProduct, getProductVersion } from '../../api/products';
import { useResource } from '../../api/use-resource';
import { CurveChart } from '../../chart/curve-chart';
import { calendarDate, words } from '../../format';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';
import { ProductBacktestForm } from './backtest-form';
import { curveChart, curveRange } from './payout-curve-model';
import { amountText, dateRefText, indexText, payoutText, settleText } from './sheet-text';

/** Points of a drawn curve: enough for a smooth line and a step's edge within half a percent of the range. */
const CURVE_POINTS = 201;

const loadVersion = async (productId: string, asked: number | undefined, signal: AbortSignal) => {
  const product = await getProduct(productId, signal);
  const version = asked ?? product.versions.at(-1)?.version ?? 1;
  return getProductVersion(productId, version, signal);
};

/** A product version: its sheet's covers, each with its phases as a table and its payout curve as a chart
 *  (what each index value pays, TERM-SHEETS.md §5.1), and a form to backtest it. The latest version unless
 *  `?version=` names one. */
export const ProductPage = ({ productId, query }: { productId: string; query: URLSearchParams }) => {
  const asked = Number(query.get('version') ?? '') || undefined;
  const data = useResource(`${productId}#${asked ?? 'latest'}`, (signal) => loadVersion(productId, asked, signal));
  return (
    <>
      <h1 tabIndex={-1}>Product {productId}</h1>
      <p>
        <Link href={consolePath('/products')}>All products</Link>
      </p>
      <Loaded resource={data} what="the product">
        {(version) => (
          <>
            <VersionSummary version={version} />
            {version.sheet.covers.map((cover) => (
              <CoverSection key={cover.peril} sheet={version.sheet} digest={version.digest} cover={cover} />
            ))}
            <ProductBacktestForm version={version} />
          </>
        )}
      </Loaded>
    </>
  );
};

const VersionSummary = ({ version }: { version: ProductVersion }) => {
  const { sheet } = version;
  return (
    <dl class="summary" data-product={version.product_id} data-version={version.version}>
      <dt>Sheet</dt>
      <dd>{sheet.name}</dd>
      <dt>Version</dt>
      <dd>
        {version.version} ({version.status}), registered {calendarDate(version.registered_at.slice(0, 10))}
      </dd>
      <dt>Season</dt>
      <dd>{sheet.season === undefined ? 'chosen at quote' : `${sheet.season.from} to ${sheet.season.to}`}</dd>
      <dt>Amounts</dt>
      <dd>
        {sheet.amounts.unit === 'minor'
          ? `money of a basis sum insured of ${amountText(sheet, sheet.amounts.sum_insured_minor)}`
          : 'shares of the sum insured'}
      </dd>
      <dt>Digest</dt>
      <dd>
        <code>{version.digest}</code>
      </dd>
    </dl>
  );
};

const CoverSection = ({ sheet, digest, cover }: { sheet: TermSheet; digest: string; cover: Cover }) => {
  const headingId = `cover-${cover.peril}-heading`;
  return (
    <section class="cover" aria-labelledby={headingId} data-cover={cover.peril}>
      <h2 id={headingId}>{words(cover.peril)}</h2>
      <p>
        Index <code>{cover.index}</code> read from {cover.reading}; pays at most {amountText(sheet, cover.limit)}
        {cover.phase_mode === 'concurrent' ? ' across its concurrent phases' : ' across its phases'}.
      </p>
      <PhaseTable sheet={sheet} cover={cover} />
      <CurveSection sheet={sheet} digest={digest} cover={cover} />
    </section>
  );
};

const PhaseTable = ({ sheet, cover }: { sheet: TermSheet; cover: Cover }) => (
  <div class="table-scroll">
    <table data-phases={cover.peril}>
      <caption>Phases of the {words(cover.peril).toLowerCase()} cover</caption>
      <thead>
        <tr>
          <th scope="col">Phase</th>
          <th scope="col">Window</th>
          <th scope="col">Index</th>
          <th scope="col">Payout</th>
          <th scope="col" class="number">
            Limit
          </th>
          <th scope="col">Settles</th>
        </tr>
      </thead>
      <tbody>
        {cover.phases.map((phase) => (
          <tr key={phase.id} data-phase={phase.id}>
            <th scope="row">{phase.id}</th>
            <td>
              {dateRefText(phase.window.from)} to {dateRefText(phase.window.to)}
            </td>
            <td>{indexText(phase)}</td>
            <td>{payoutText(sheet, phase.payout)}</td>
            <td class="number">{amountText(sheet, phase.limit)}</td>
            <td>{settleText(phase)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

const CurveSection = ({ sheet, digest, cover }: { sheet: TermSheet; digest: string; cover: Cover }) => {
  const range = curveRange(cover);
  const curve = useResource(`${digest}#${cover.peril}`, (signal) =>
    drawPayoutCurve({ sheet, peril: cover.peril, ...range, points: CURVE_POINTS }, signal),
  );
  return (
    <Loaded resource={curve} what="the payout curve">
      {(answered) => <CurveChart model={curveChart(cover, answered)} />}
    </Loaded>
  );
};
