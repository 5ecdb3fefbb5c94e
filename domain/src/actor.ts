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

/** An actor with the roles its token grants, for the rules that turn on the kind of work as well as on the
 *  organization: registering a source and writing its readings is a data provider's work. */
export interface ActorInRoles extends Actor {
  readonly roles: readonly string[];
}

/** Whether the actor holds any of the roles; an admin holds them all. */
export const holdsRole = (actor: ActorInRoles, ...roles: readonly string[]): boolean =>
  actor.isAdmin || roles.some((role) => actor.roles.includes(role));
