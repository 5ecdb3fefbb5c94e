/** Who issues a command, as the deciders need to know it. */
export interface Actor {
  readonly subject: string;
  readonly organizationId: string | null;
  readonly isAdmin: boolean;
}

/** Whether the actor may act for (and see what belongs to) an organization: its own, or any for an admin.
 *  An actor without an organization acts for none. */
export const canActForOrganization = (actor: Actor, organizationId: string): boolean =>
  actor.isAdmin || actor.organizationId === organizationId;
