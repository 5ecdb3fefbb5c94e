import { money } from '../../format';
import { type ExposureZone, percent, UTILISATION_BANDS, utilisationBand, zoneName } from './utilisation';

/** The programme's zones as a grid of tiles, fullest first (the API's order), each coloured by how full it
 *  is and saying so in words. */
export const ExposureGrid = ({ zones, currency }: { zones: readonly ExposureZone[]; currency: string }) => (
  <>
    <ul class="legend utilisation-legend" aria-label="Colours of the grid">
      {UTILISATION_BANDS.map(({ band, label }) => (
        <li key={band}>
          <span class={`swatch utilisation-${band}`} aria-hidden="true" />
          {label}
        </li>
      ))}
    </ul>
    <ol class="exposure-grid" data-exposure aria-label="Zones, fullest first">
      {zones.map((zone) => {
        const band = utilisationBand(zone.utilisation);
        return (
          <li
            key={zoneName(zone)}
            class={`zone utilisation-${band}`}
            data-zone={`${zone.source_id}/${zone.location}`}
            data-utilisation={zone.utilisation ?? ''}
            data-band={band}
          >
            <span class="zone-name">{zoneName(zone)}</span>
            <strong class="zone-utilisation">{percent(zone.utilisation)}</strong>
            <span>
              {money(zone.sum_insured, currency)}
              {zone.capacity === null ? '' : ` of ${money(zone.capacity, currency)}`}
            </span>
            <span>
              {zone.policies.toLocaleString()} {zone.policies === 1 ? 'policy' : 'policies'}
            </span>
          </li>
        );
      })}
    </ol>
  </>
);
