import type { Programme, ProgrammeExposure, ProgrammeResults, TreatyList } from '@cropcover/contracts';
import { getProgramme, getResults, getZoneExposure, listTreaties } from '../../api/programmes';
import { useResource } from '../../api/use-resource';
import { money } from '../../format';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';
import { BacktestSection } from './backtest-section';
import { ExposureGrid } from './exposure-grid';
import { ResultsTable, TreatyTable } from './reinsurance';
import { percent } from './utilisation';

interface ProgrammePageData {
  readonly programme: Programme;
  readonly exposure: ProgrammeExposure;
  readonly treaties: TreatyList;
  readonly results: ProgrammeResults;
}

const loadProgrammePage = async (programmeId: string, zonesPage: number, signal: AbortSignal) => {
  const [programme, exposure, treaties, results] = await Promise.all([
    getProgramme(programmeId, signal),
    getZoneExposure(programmeId, zonesPage, signal),
    listTreaties(programmeId, signal),
    getResults(programmeId, signal),
  ]);
  return { programme, exposure, treaties, results } satisfies ProgrammePageData;
};

/** A programme: its zones as a grid coloured by how full each is (fullest first), its treaties and its
 *  gross, ceded and net, and the as-if losses of its book. */
export const ProgrammePage = ({ programmeId, query }: { programmeId: string; query: URLSearchParams }) => {
  const zonesPage = Number(query.get('zones_page') ?? 1) || 1;
  const data = useResource(`${programmeId}#${zonesPage}`, (signal) =>
    loadProgrammePage(programmeId, zonesPage, signal),
  );
  return (
    <>
      <h1 tabIndex={-1}>Programme {data.state === 'loaded' ? data.value.programme.name : programmeId}</h1>
      <Loaded resource={data} what="the programme">
        {({ programme, exposure, treaties, results }) => (
          <>
            <ProgrammeSummary programme={programme} exposure={exposure} />
            <section aria-labelledby="exposure-heading">
              <h2 id="exposure-heading">Exposure per zone</h2>
              {exposure.items.length === 0 ? (
                <p>No policy of this programme is in force.</p>
              ) : (
                <ExposureGrid zones={exposure.items} currency={programme.currency} />
              )}
              <ZonePages programmeId={programme.programme_id} exposure={exposure} />
            </section>
            <section aria-labelledby="treaties-heading">
              <h2 id="treaties-heading">Treaties and net</h2>
              <TreatyTable treaties={treaties.items} currency={programme.currency} />
              <ResultsTable results={results} />
            </section>
          </>
        )}
      </Loaded>
      {data.state === 'loaded' && (
        <BacktestSection programmeId={programmeId} jobId={query.get('backtest') ?? undefined} />
      )}
    </>
  );
};

const ProgrammeSummary = ({ programme, exposure }: { programme: Programme; exposure: ProgrammeExposure }) => {
  const amount = (value: number) => money(value, programme.currency);
  const { totals } = exposure;
  return (
    <dl class="summary" data-programme={programme.programme_id}>
      <dt>Currency</dt>
      <dd>
        {programme.currency}
        {programme.is_default && ' (the default programme)'}
      </dd>
      <dt>Policies in force</dt>
      <dd>{totals.policies.toLocaleString()}</dd>
      <dt>Sum insured</dt>
      <dd>{amount(totals.sum_insured)}</dd>
      <dt>Premium</dt>
      <dd>{amount(totals.premium)}</dd>
      <dt>Aggregate limit</dt>
      <dd>
        {totals.aggregate_limit === null
          ? 'none'
          : `${amount(totals.aggregate_limit)}, ${percent(totals.utilisation)} used`}
      </dd>
      <dt>Capacity per zone</dt>
      <dd>
        {programme.capacity.zone_default === null
          ? 'no default'
          : `${amount(programme.capacity.zone_default)} by default`}
        {programme.capacity.zones.length > 0 &&
          `, ${programme.capacity.zones.length} ${programme.capacity.zones.length === 1 ? 'zone' : 'zones'} set apart`}
      </dd>
    </dl>
  );
};

const ZonePages = ({ programmeId, exposure }: { programmeId: string; exposure: ProgrammeExposure }) => {
  const pages = Math.ceil(exposure.total / exposure.page_size);
  if (pages <= 1) return null;
  const pageHref = (page: number) =>
    consolePath(`/programmes/${encodeURIComponent(programmeId)}`, { zones_page: page });
  return (
    <nav aria-label="Pages of zones" class="pagination">
      {exposure.page > 1 && <Link href={pageHref(exposure.page - 1)}>Fuller zones</Link>}
      <span>
        Zones page {exposure.page} of {pages}
      </span>
      {exposure.page < pages && <Link href={pageHref(exposure.page + 1)}>Emptier zones</Link>}
    </nav>
  );
};
