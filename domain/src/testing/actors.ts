import type { Actor } from '../actor';

// The callers the access rules tell apart, beside the insurers of ./insured-farm.

/** Owns the farms of the tests (their owner_subject), and acts for no organization. */
export const farmOwner: Actor = { subject: 'owner', organizationId: null, isAdmin: false };
export const stranger: Actor = { subject: 'stranger', organizationId: null, isAdmin: false };
export const admin: Actor = { subject: 'root', organizationId: 'org-z', isAdmin: true };
