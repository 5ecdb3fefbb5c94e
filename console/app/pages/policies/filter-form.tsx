import type { PolicyFilters } from '../../api/policies';
import { words } from '../../format';
import { consolePath, navigate } from '../../router';

// The seed's values of the list filters (endpoint 2).
const STATUSES = ['active', 'claimed', 'expired', 'lapsed'] as const;
const PERILS = ['drought', 'flood', 'vegetation_stress', 'storm'] as const;
export const PAGE_SIZES = [20, 50, 100] as const;

/** The list's filters; applying them goes back to page 1. */
export const FilterForm = ({ filters }: { filters: PolicyFilters }) => (
  <form
    class="filters"
    aria-label="Filter policies"
    onSubmit={(event) => {
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      const value = (key: string) => String(form.get(key) ?? '').trim() || undefined;
      navigate(
        consolePath('/', {
          status: value('status'),
          peril: value('peril'),
          farm_id: value('farm_id'),
          page_size: value('page_size'),
        }),
      );
    }}
  >
    <label>
      Status
      <select name="status" value={filters.status ?? ''}>
        <option value="">any</option>
        {STATUSES.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
    </label>
    <label>
      Peril
      <select name="peril" value={filters.peril ?? ''}>
        <option value="">any</option>
        {PERILS.map((peril) => (
          <option key={peril} value={peril}>
            {words(peril)}
          </option>
        ))}
      </select>
    </label>
    <label>
      Farm id
      <input name="farm_id" type="text" value={filters.farm_id ?? ''} autocomplete="off" />
    </label>
    <label>
      Per page
      <select name="page_size" value={String(filters.page_size ?? 20)}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </label>
    <button type="submit">Apply</button>
  </form>
);
