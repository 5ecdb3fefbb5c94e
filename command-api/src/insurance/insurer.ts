import { type Principal, requireRolesInOrganization } from '@cropcover/runtime';

/** Every insurance write needs the insurer role (or admin) and an organization to act for (SPEC §4);
 *  checked before the body is read, so a caller without them learns nothing about their input. */
export const requireInsurer = (principal: Principal): string => requireRolesInOrganization(principal, 'insurer');
