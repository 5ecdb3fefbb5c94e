/** Who issues a command, as the deciders need to know it. */
export interface Actor {
  readonly subject: string;
  readonly organizationId: string | null;
  readonly isAdmin: boolean;
}
