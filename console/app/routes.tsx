import { AuditPage } from './pages/audit/audit-page';
import { PoliciesPage } from './pages/policies/policies-page';
import { PolicyPage } from './pages/policy/policy-page';
import { ProductPage } from './pages/product/product-page';
import { ProductsPage } from './pages/product/products-page';
import { ProductBacktestPage } from './pages/product-backtest/product-backtest-page';
import { ProgrammePage } from './pages/programme/programme-page';
import { ProgrammesPage } from './pages/programmes/programmes-page';
import type { Route } from './router';

// Every page of the console, by path under /console. A new page is one line here and a folder in pages/.
export const ROUTES: readonly Route[] = [
  { pattern: '/', page: (_params, query) => <PoliciesPage query={query} /> },
  { pattern: '/policies/:policy_id', page: (params) => <PolicyPage policyId={params.policy_id!} /> },
  { pattern: '/policies/:policy_id/audit', page: (params) => <AuditPage policyId={params.policy_id!} /> },
  { pattern: '/products', page: () => <ProductsPage /> },
  {
    pattern: '/products/:product_id',
    page: (params, query) => <ProductPage productId={params.product_id!} query={query} />,
  },
  {
    pattern: '/products/backtests/:job_id',
    page: (params, query) => <ProductBacktestPage jobId={params.job_id!} query={query} />,
  },
  { pattern: '/programmes', page: () => <ProgrammesPage /> },
  {
    pattern: '/programmes/:programme_id',
    page: (params, query) => <ProgrammePage programmeId={params.programme_id!} query={query} />,
  },
];
