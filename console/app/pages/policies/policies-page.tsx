import type { PolicyList } from '@cropcover/contracts';
import { listPolicies, type PolicyFilters } from '../../api/policies';
import { useResource } from '../../api/use-resource';
import { money, period, words } from '../../format';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';
import { FilterForm } from './filter-form';
import { Pagination } from './pagination';

// The seed's policy list (endpoint 2): its filters and pages live in the address, so a filtered page
// can be bookmarked, shared and gone back to.

const filtersOf = (query: URLSearchParams): PolicyFilters => {
  const read = (key: string) => query.get(key) ?? undefined;
  return {
    status: read('status') as PolicyFilters['status'],
    peril: read('peril') as PolicyFilters['peril'],
    farm_id: read('farm_id'),
    page: read('page') === undefined ? undefined : Number(read('page')),
    page_size: read('page_size') === undefined ? undefined : Number(read('page_size')),
  };
};

export const PoliciesPage = ({ query }: { query: URLSearchParams }) => {
  const filters = filtersOf(query);
  const policies = useResource(query.toString(), (signal) => listPolicies(filters, signal));
  return (
    <>
      <h1 tabIndex={-1}>Policies</h1>
      <FilterForm filters={filters} />
      <Loaded resource={policies} what="the policies">
        {(list) => <PolicyTable list={list} filters={filters} />}
      </Loaded>
    </>
  );
};

const PolicyTable = ({ list, filters }: { list: PolicyList; filters: PolicyFilters }) => (
  <>
    <p role="status" data-total={list.total}>
      {list.total.toLocaleString()} {list.total === 1 ? 'policy' : 'policies'}
    </p>
    {list.items.length > 0 && (
      <div class="table-scroll">
        <table class="policies" data-policies>
          <caption>Policies, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Policy</th>
              <th scope="col">Status</th>
              <th scope="col">Farm / field</th>
              <th scope="col">Crop</th>
              <th scope="col">Perils</th>
              <th scope="col" class="number">
                Sum insured
              </th>
              <th scope="col" class="number">
                Premium
              </th>
              <th scope="col">Term</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((policy) => (
              <tr key={policy.policy_id} data-policy={policy.policy_id}>
                <th scope="row">
                  <Link href={consolePath(`/policies/${encodeURIComponent(policy.policy_id)}`)}>
                    {policy.policy_id}
                  </Link>
                </th>
                <td>
                  <span class={`status-badge status-${policy.status}`}>{policy.status}</span>
                </td>
                <td>
                  {policy.farm_id} / {policy.field_id}
                </td>
                <td>{policy.crop_type ?? '—'}</td>
                <td>{policy.perils.map(words).join(', ')}</td>
                <td class="number">{money(policy.sum_insured, policy.currency)}</td>
                <td class="number">{money(policy.premium, policy.currency)}</td>
                <td>{period(policy.term_start, policy.term_end)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
    <Pagination list={list} filters={filters} />
  </>
);
