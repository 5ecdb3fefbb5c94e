import type { Peril, PolicyStatus } from '@cropcover/contracts';
import type { PolicyFilters } from '../../api/policies';
import { words } from '../../format';
import { consolePath, navigate } from '../../router';

/** Every value of one of the contract's enums, in the order written: a record over the enum's type is
 *  refused by `tsc -p console` when it misses a value or names one the contract does not have, so the
 *  filters offer what the list accepts (the console imports the contract's types only, not its zod). */
const everyValue = <Value extends string>(values: Record<Value, true>): Value[] => Object.keys(values) as Value[];

const STATUSES = everyValue<PolicyStatus>({ active: true, claimed: true, expired: true, lapsed: true });
// The seed's four first, then those term sheets added (issue 32: the filter offered the four alone).
const PERILS = everyValue<Peril>({
  drought: true,
  flood: true,
  vegetation_stress: true,
  storm: true,
  excess_rainfall: true,
  unseasonal_rain: true,
  dry_spell: true,
  cold: true,
  frost: true,
  heat: true,
  humidity: true,
  yield_shortfall: true,
  heat_stress: true,
  disease_risk: true,
  forage_deficit: true,
  livestock_mortality: true,
  modelled_loss: true,
});
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
