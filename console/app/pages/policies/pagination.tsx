import type { PolicyList } from '@cropcover/contracts';
import type { PolicyFilters } from '../../api/policies';
import { consolePath, Link } from '../../router';

/** Previous and next pages of the list, keeping its filters. */
export const Pagination = ({ list, filters }: { list: PolicyList; filters: PolicyFilters }) => {
  const pages = Math.max(1, Math.ceil(list.total / list.page_size));
  const pageHref = (page: number) => consolePath('/', { ...filters, page });
  return (
    <nav class="pagination" aria-label="Pages of policies">
      {list.page > 1 ? <Link href={pageHref(list.page - 1)}>Previous page</Link> : <span>Previous page</span>}
      <span data-page={list.page} data-pages={pages}>
        Page {list.page} of {pages}
      </span>
      {list.page < pages ? <Link href={pageHref(list.page + 1)}>Next page</Link> : <span>Next page</span>}
    </nav>
  );
};
