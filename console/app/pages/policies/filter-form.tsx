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
    <Choice
      label="Status"
      name="status"
      value={filters.status ?? ''}
      options={[['', 'any'], ...STATUSES.map((status) => [status, status] as const)]}
    />
    <Choice
      label="Peril"
      name="peril"
      value={filters.peril ?? ''}
      options={[['', 'any'], ...PERILS.map((peril) => [peril, words(peril)] as const)]}
    />
    <label>
      Farm id
      <input name="farm_id" type="text" value={filters.farm_id ?? ''} autocomplete="off" />
    </label>
    <Choice
      label="Per page"
      name="page_size"
      value={String(filters.page_size ?? 20)}
      options={PAGE_SIZES.map((size) => [String(size), String(size)] as const)}
    />
    <button type="submit">Apply</button>
  </form>
);

/** One of the list's choices: a labelled select of [value, text] options. */
const Choice = ({
  label,
  name,
  value,
  options,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly (readonly [value: string, text: string])[];
}) => (
  <label>
    {label}
    <select name={name} value={value}>
      {options.map(([option, text]) => (
        <option key={option} value={option}>
          {text}
        </option>
      ))}
    </select>
  </label>
);
