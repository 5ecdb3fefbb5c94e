import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService, startProcess } from '../../support/service-process';

// The production topology (docker-compose.yml): each role its own process on one database, started as an
// operator does, so a test can kill one or watch all of them ride out a fault below them.

export type Role = 'projector' | 'commandApi' | 'queryApi' | 'dispatcher' | 'monitor';
const MAINS: Record<Role, string> = {
  projector: 'service/src/processes/projector.ts',
  commandApi: 'service/src/processes/command-api.ts',
  queryApi: 'service/src/processes/query-api.ts',
  dispatcher: 'service/src/processes/webhook-dispatcher.ts',
  monitor: 'service/src/processes/monitor.ts',
};
const READY: Record<Role, string> = {
  projector: '/healthz',
  commandApi: '/readyz',
  queryApi: '/readyz',
  dispatcher: '/healthz',
  monitor: '/healthz',
};

export interface ServiceTopology {
  urlOf(role: 'commandApi' | 'queryApi' | Role): string;
  /** One more process of `role` beside the topology's (the production topology runs several monitors
   *  and dispatchers where load asks), with `env` over the topology's; stopped with the others. */
  startBeside(role: Role, name: string, env: Record<string, string>): Promise<RunningService>;
  /** Everything every process wrote, each line prefixed by its role. */
  output(): string;
  stop(): Promise<void>;
}

export const startTopology = async (
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServiceTopology> => {
  const dataDir = env.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'cropcover-fault-data-')));
  const environment = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    AUDIT_CHECKPOINT_DIR: join(dataDir, 'audit-checkpoints'),
    WEBHOOK_ALLOW_INSECURE: 'true',
    // A failed delivery is tried again after 0.5 s instead of 5 s.
    WEBHOOK_RETRY_SCALE: '0.1',
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    ...env,
  };
  const running = new Map<Role, RunningService>();
  const beside = new Map<string, RunningService>();
  const start = async (role: Role) => {
    running.set(role, await startProcess(['node_modules/.bin/tsx', MAINS[role]], environment, READY[role]));
  };
  // The projector first: it migrates the schema the others read.
  await start('projector');
  await Promise.all((['commandApi', 'queryApi', 'dispatcher', 'monitor'] as const).map(start));
  return {
    urlOf: (role) => running.get(role)!.baseUrl,
    startBeside: async (role, name, env) => {
      const service = await startProcess(
        ['node_modules/.bin/tsx', MAINS[role]],
        { ...environment, ...env },
        READY[role],
      );
      beside.set(name, service);
      return service;
    },
    output: () =>
      [...running, ...beside]
        .map(([role, service]) =>
          service
            .output()
            .split('\n')
            .map((line) => `${role}: ${line}`)
            .join('\n'),
        )
        .join('\n'),
    stop: async () => {
      for (const service of beside.values()) await service.stop();
      for (const role of ['dispatcher', 'monitor', 'queryApi', 'commandApi', 'projector'] as const)
        await running.get(role)?.stop();
    },
  };
};
