import type { ProductBacktestJob } from '@cropcover/contracts';
import { useEffect, useState } from 'preact/hooks';
import { getProductBacktest } from '../../api/products';
import { useResource } from '../../api/use-resource';
import { timestamp, words } from '../../format';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';
import { basisRiskText, selectedLocation } from './backtest-results';
import { LocationSeasons } from './location-seasons';
import { LocationTable } from './location-table';

// A product backtest asked for from a product page (TERM-SHEETS.md "Backtesting a product"), followed
// until it is done: its locations with their statistics and basis risk, a page of them at a time, and the
// seasons of the one chosen (`?source=&location=` in the address, so a view can be shared).

const POLL_MS = 1000;

export const ProductBacktestPage = ({ jobId, query }: { jobId: string; query: URLSearchParams }) => {
  const page = Number(query.get('page') ?? 1) || 1;
  const [round, setRound] = useState(0);
  const job = useResource(`${jobId}#${page}#${round}`, (signal) => getProductBacktest(jobId, page, signal));
  const pending = job.state === 'loaded' && (job.value.status === 'queued' || job.value.status === 'running');
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setRound((next) => next + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, round]);
  return (
    <>
      <h1 tabIndex={-1}>Product backtest</h1>
      <Loaded resource={job} what="the backtest">
        {(value) => <JobResult job={value} query={query} />}
      </Loaded>
    </>
  );
};

const JobResult = ({ job, query }: { job: ProductBacktestJob; query: URLSearchParams }) => {
  const { product } = job;
  return (
    <div data-backtest={job.job_id} data-backtest-status={job.status}>
      <p>
        {product === null ? (
          'A term sheet given inline'
        ) : (
          <Link href={consolePath(`/products/${encodeURIComponent(product.product_id)}`, { version: product.version })}>
            {product.product_id} version {product.version}
          </Link>
        )}
        : its {job.perils.map((peril) => words(peril).toLowerCase()).join(', ')} cover
        {job.perils.length === 1 ? '' : 's'}, over the seasons {job.season.from} to {job.season.to} of{' '}
        {job.seasons.from} to {job.seasons.to}; asked {timestamp(job.requested_at)}.
      </p>
      <Outcome job={job} query={query} />
    </div>
  );
};

const Outcome = ({ job, query }: { job: ProductBacktestJob; query: URLSearchParams }) => {
  if (job.status === 'failed')
    return (
      <p role="alert" class="problem">
        The backtest failed: {job.error?.detail ?? 'no reason given'}
      </p>
    );
  if (job.result === null)
    return (
      <p role="status" class="status">
        The backtest is {job.status}…
      </p>
    );
  const { summary, locations } = job.result;
  const selected = selectedLocation(locations, query.get('source'), query.get('location'));
  return (
    <>
      <p data-summary>
        {summary.locations_evaluated} of {summary.locations} locations evaluated
        {summary.locations_evaluated === summary.locations ? '' : ' (the others were skipped: see why below)'}.
        {summary.basis_risk && ` Basis risk over every location: ${basisRiskText(summary.basis_risk)}.`}
      </p>
      <LocationTable job={job} result={job.result} selected={selected} />
      {selected && <LocationSeasons job={job} location={selected} />}
    </>
  );
};
