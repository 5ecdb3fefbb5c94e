import type { IndexSourceRegistered } from '@cropcover/contracts';
import type { ActorInRoles } from '../actor';

// The callers the source rules tell apart, and a source of each kind as the log records it.

export const dataProvider: ActorInRoles = {
  subject: 'weather-feed',
  organizationId: 'org-data',
  isAdmin: false,
  roles: ['data_provider'],
};
export const otherDataProvider: ActorInRoles = { ...dataProvider, subject: 'rival-feed', organizationId: 'org-rival' };
export const sameOrgInsurer: ActorInRoles = { ...dataProvider, subject: 'underwriter', roles: ['insurer'] };
export const dataProviderWithoutOrg: ActorInRoles = { ...dataProvider, organizationId: null };
export const sourceAdmin: ActorInRoles = { subject: 'root', organizationId: 'org-z', isAdmin: true, roles: ['admin'] };

const registered = (data: Partial<IndexSourceRegistered> & Pick<IndexSourceRegistered, 'kind'>) => ({
  type: 'IndexSourceRegistered' as const,
  data: {
    source_id: `src-${data.kind}`,
    organization_id: 'org-data',
    name: `A ${data.kind} source`,
    index: 'rainfall_mm' as const,
    stations: null,
    radius_km: null,
    resolution_deg: null,
    registered_by: 'weather-feed',
    registered_at: '2026-03-01T00:00:00.000Z',
    ...data,
  },
});

export const stationSourceRegistered = registered({
  kind: 'station',
  stations: [
    { station_id: 'KE-NBO', lat: -1.3192, lon: 36.9278 },
    { station_id: 'KE-KSM', lat: -0.0917, lon: 34.7679 },
  ],
  radius_km: 25,
});
export const gridSourceRegistered = registered({ kind: 'grid', resolution_deg: 0.05 });
export const fieldSourceRegistered = registered({ kind: 'field', index: 'ndvi' });
