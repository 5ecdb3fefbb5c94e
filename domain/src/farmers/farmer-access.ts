import type { Actor } from '../actor';

/** Whether the actor may look a farmer up: the farmer themself and admins always, anyone else only once
 *  the farmer consented to share their data. */
export const canSeeFarmer = (
  actor: Actor,
  farmer: { readonly subject: string | null; readonly data_consent_given: boolean },
): boolean => actor.isAdmin || actor.subject === farmer.subject || farmer.data_consent_given;
