import { ProductBacktestJob, ProductBacktestPathParams, ProductBacktestQuery } from '@cropcover/contracts';
import { loadProductBacktestJob } from '@cropcover/read-store';
import { queryRoute } from '../../../../query-route';

/** TERM-SHEETS.md §5.1: a product backtest job: queued, running, then its summary and a page of its
 *  locations' results, or why it failed. Other organizations' jobs are not found. */
export const getProductBacktest = queryRoute('GET /insurance/products/backtests/{job_id}', {
  summary: 'Follow a product backtest: its status, then its results a page of locations at a time',
  roles: ['insurer'],
  request: { params: ProductBacktestPathParams, query: ProductBacktestQuery },
  success: { status: 200, schema: ProductBacktestJob, description: 'The job' },
  problems: {
    404: {
      description: 'product_backtest_not_found: no such job in your organization',
      codes: ['product_backtest_not_found'],
    },
  },
}).handle(async ({ deps, params: { job_id }, query, organizationId, refuse }) => {
  const job = await loadProductBacktestJob(deps.db, organizationId, job_id, {
    page: query.page,
    pageSize: query.page_size,
  });
  if (job === undefined) throw refuse('product_backtest_not_found', `No product backtest ${job_id}.`);
  const summary = job.run?.status === 'succeeded' ? job.run.summary : null;
  return {
    job_id: job.job_id,
    status: job.run?.status ?? 'queued',
    requested_at: job.requested_at.toISOString(),
    completed_at: job.run?.completed_at?.toISOString() ?? null,
    product: job.product,
    perils: [...job.perils],
    season: job.season,
    seasons: { from: job.year_from, to: job.year_to },
    ...(job.sheet.amounts.unit === 'minor' ? { currency: job.sheet.amounts.currency } : {}),
    error: (job.run?.error as { code: string; detail: string } | null | undefined) ?? null,
    result:
      summary === null
        ? null
        : { summary, page: query.page, page_size: query.page_size, locations: [...job.locations_page] },
  };
});
