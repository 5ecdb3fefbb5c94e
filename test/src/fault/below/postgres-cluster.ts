import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// PostgreSQL clusters of the fault suite's own, made and driven with the machine's PostgreSQL 15 tools
// (initdb, pg_ctl, pg_basebackup) as the `postgres` user, on the loopback of the suite's network
// namespace: a fault struck at one of them touches no other suite's database.

export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

const asPostgres = async (command: string, args: readonly string[]): Promise<string> => {
  const { stdout } = await run('runuser', ['-u', 'postgres', '--', join(POSTGRES_BIN, command), ...args], {
    timeout: 60_000,
  });
  return stdout;
};

export interface PostgresCluster {
  readonly port: number;
  readonly dataDir: string;
  /** A URL of one database of this cluster. */
  url(database?: string): string;
  start(): Promise<void>;
  /** SIGKILL to the postmaster alone, as the kernel's OOM killer would: its backends notice and end. */
  killPostmaster(): Promise<void>;
  stop(): Promise<void>;
  promote(): Promise<void>;
  /** Everything the server logged so far. */
  log(): Promise<string>;
  remove(): Promise<void>;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The postmaster's children: still running after it died, they hold its shared memory, and a new
 *  postmaster refuses to start until they are gone. */
const childrenOf = async (pid: number): Promise<number[]> => {
  const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }));
  return stdout
    .split('\n')
    .map((line) => Number.parseInt(line.trim(), 10))
    .filter((child) => Number.isInteger(child));
};

const clusterAt = (dataDir: string, port: number): PostgresCluster => {
  const logFile = join(dataDir, '..', `${port}.log`);
  const postmasterPid = async (): Promise<number> =>
    Number.parseInt((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]!, 10);
  return {
    port,
    dataDir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => {
      await asPostgres('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
    },
    killPostmaster: async () => {
      const pid = await postmasterPid();
      const children = await childrenOf(pid);
      process.kill(pid, 'SIGKILL');
      const deadline = Date.now() + 30_000;
      while ([pid, ...children].some(isAlive)) {
        if (Date.now() > deadline) throw new Error(`the postmaster's processes ${children} outlived it by 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: async () => {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    },
    promote: async () => {
      await asPostgres('pg_ctl', ['-D', dataDir, '-w', 'promote']);
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
    remove: async () => {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(join(dataDir, '..'), { recursive: true, force: true });
    },
  };
};

/** A directory the `postgres` user owns, for one cluster and its log. */
const clusterHome = async (): Promise<string> => {
  const home = await mkdtemp(join(tmpdir(), 'cropcover-fault-pg-'));
  await chmod(home, 0o755);
  await chown(home, ...(await postgresIds()));
  return home;
};

const postgresIds = async (): Promise<[number, number]> => {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return [Number(stdout.trim()), Number(group.trim())];
};

/** Settings of every cluster of the suite: fsync on (a crash must be a real one), small and quick. */
const SETTINGS = `
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = on
synchronous_commit = on
shared_buffers = 32MB
max_connections = 100
wal_level = replica
max_wal_senders = 4
hot_standby = on
wal_keep_size = 64MB
log_min_messages = warning
`;

/** A new primary cluster on `port`, started. With `mountData`, the data directory is what it mounts there
 *  (a small disk, given the `postgres` user's ids to own it) and the WAL is kept apart, in the cluster's
 *  home: a full data directory then fails writes, while a full pg_wal would stop the server (PANIC). */
export const createPrimaryCluster = async (
  port: number,
  options: { mountData?: (dataDir: string, owner: [number, number]) => Promise<void> } = {},
): Promise<PostgresCluster> => {
  const home = await clusterHome();
  const dataDir = join(home, 'data');
  const walApart: string[] = [];
  if (options.mountData) {
    await options.mountData(dataDir, await postgresIds());
    walApart.push('--waldir', join(home, 'wal'));
  }
  await asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', ...walApart]);
  await appendSettings(dataDir, `port = ${port}\n${SETTINGS}`);
  await writeAsPostgres(
    join(dataDir, 'pg_hba.conf'),
    'host all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n',
  );
  const cluster = clusterAt(dataDir, port);
  await cluster.start();
  return cluster;
};

/** A streaming replica of `primary` on `port`, made with pg_basebackup, started. `name` is its
 *  application_name, which the primary's synchronous_standby_names may list. */
export const createReplicaCluster = async (
  primary: PostgresCluster,
  port: number,
  name: string,
): Promise<PostgresCluster> => {
  const home = await clusterHome();
  const dataDir = join(home, 'data');
  await asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
  ]);
  await appendSettings(
    dataDir,
    `port = ${port}\nprimary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}'\n`,
  );
  const cluster = clusterAt(dataDir, port);
  await cluster.start();
  return cluster;
};

const appendSettings = async (dataDir: string, settings: string): Promise<void> => {
  const file = join(dataDir, 'postgresql.auto.conf');
  const before = await readFile(file, 'utf8').catch(() => '');
  await writeAsPostgres(file, `${before}\n${settings}`);
};

/** A file of a cluster, left to the `postgres` user (ALTER SYSTEM rewrites postgresql.auto.conf). */
const writeAsPostgres = async (file: string, text: string): Promise<void> => {
  await writeFile(file, text, { mode: 0o600 });
  await chown(file, ...(await postgresIds()));
};
