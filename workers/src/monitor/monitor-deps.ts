import type { CommandDeps } from '@cropcover/application';

/** What the monitor needs of the command side: the log it appends to and the readings it evaluates. */
export type PolicyMonitorDeps = CommandDeps;
