import type { CommandApiDeps } from '../../command-api-deps';

/** What the monitor needs of the command side: the log it appends to and the readings it evaluates. */
export type PolicyMonitorDeps = Pick<CommandApiDeps, 'eventStore' | 'db'>;
