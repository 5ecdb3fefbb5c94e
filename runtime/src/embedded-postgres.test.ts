import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { resolveDatabaseUrl, startEmbeddedPostgres } from './embedded-postgres';
import { createLogger } from './logger';

const logger = createLogger({ level: 'silent' });

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const query = async (url: string, text: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
};

describe('startEmbeddedPostgres', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cropcover-embedded-'));
    // mkdtemp makes the folder private to root; the unprivileged postgres user must be able to enter it.
    await chmod(dataDir, 0o755);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('initialises a data directory, serves a database, and keeps its data across restarts', async () => {
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, logger });
    try {
      expect(first.url).toBe(`postgres://postgres:cropcover-local@127.0.0.1:${port}/cropcover`);
      await query(first.url, "create table kept (note text); insert into kept values ('still here')");
    } finally {
      await first.stop();
    }

    const second = await startEmbeddedPostgres({ dataDir, port, logger });
    try {
      expect(await query(second.url, 'select note from kept')).toEqual([{ note: 'still here' }]);
    } finally {
      await second.stop();
    }
  });

  it('explains a failed start', async () => {
    // Listening on every address, so PostgreSQL finds neither 127.0.0.1 nor ::1 free.
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, resolve));
    const address = busy.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(startEmbeddedPostgres({ dataDir, port, logger })).rejects.toThrow(
        new RegExp(`embedded PostgreSQL did not start on port ${port}[^]*could not create any TCP/IP sockets`),
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});

describe('resolveDatabaseUrl', () => {
  it('uses DATABASE_URL as given and starts nothing', async () => {
    const server = await resolveDatabaseUrl(loadConfig({ DATABASE_URL: 'postgres://u@db.internal:5432/cc' }), logger);
    expect(server.url).toBe('postgres://u@db.internal:5432/cc');
    await server.stop();
  });
});
