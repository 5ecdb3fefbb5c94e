import type { PayoutCurveRequest, ProductBacktestRequest } from '@cropcover/contracts';
import { callApi } from './client';

// The product endpoints the console reads (TERM-SHEETS.md §2.1, §5.1), typed by the API's own contracts.

export const listProducts = (page: number, signal: AbortSignal) =>
  callApi('GET /insurance/products', { query: { page, page_size: 50 } }, signal);

export const getProduct = (productId: string, signal: AbortSignal) =>
  callApi('GET /insurance/products/{product_id}', { params: { product_id: productId } }, signal);

export const getProductVersion = (productId: string, version: number, signal: AbortSignal) =>
  callApi(
    'GET /insurance/products/{product_id}/versions/{version}',
    { params: { product_id: productId, version: String(version) } },
    signal,
  );

/** What a cover of a sheet pays across a range of its index: computed, never stored. */
export const drawPayoutCurve = (request: PayoutCurveRequest, signal: AbortSignal) =>
  callApi('POST /insurance/products/payout-curve', { body: request }, signal);

/** What a sheet would have paid at many locations over past seasons (TERM-SHEETS.md "Backtesting a
 *  product"): computed as a job, changing nothing of the book. */
export const startProductBacktest = (request: ProductBacktestRequest) =>
  callApi('POST /insurance/products/backtest', { body: request });

/** The API's largest page of a backtest's locations. */
export const BACKTEST_PAGE_SIZE = 100;

/** The job, and once it succeeded a page of its locations in the order asked. */
export const getProductBacktest = (jobId: string, page: number, signal: AbortSignal) =>
  callApi(
    'GET /insurance/products/backtests/{job_id}',
    { params: { job_id: jobId }, query: { page, page_size: BACKTEST_PAGE_SIZE } },
    signal,
  );
