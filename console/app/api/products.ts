import type { PayoutCurveRequest } from '@cropcover/contracts';
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
