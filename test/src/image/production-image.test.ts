import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  type RunningService,
  repositoryRoot,
  startProcess,
  TEST_JWT_SECRET,
  TEST_PERSONAL_DATA_KEYS,
} from '../support/service-process';
import { copyBuildContext, envOf, execFormOf, readDockerfile } from './dockerfile';

// The production image, built as its Dockerfile builds it but without Docker (no engine on these
// machines): the build context that `.dockerignore` lets through, the build stage's RUN commands with
// Node 24 first on PATH as in the image, then every entry point docker-compose.yml and the image start,
// run on Node 24 with the run stage's environment, each to `/readyz`, and the image's HEALTHCHECK.

const run = promisify(execFile);
const stages = readDockerfile(join(repositoryRoot, 'Dockerfile'));
const buildStage = stages.find((stage) => stage.name === 'build')!;
const runStage = stages.at(-1)!;
const compose = parse(readFileSync(join(repositoryRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { command?: string[]; build?: string }>;
};
const composeCommands = Object.entries(compose.services)
  .filter(([, service]) => service.build !== undefined)
  .map(([name, service]) => [name, service.command!] as const);

const pinnedNode24 = /^NODE24_VERSION=(\S+)$/m.exec(readFileSync(join(repositoryRoot, 'scripts/node24'), 'utf8'))?.[1];

let work: string;
let app: string;
let node24Bin: string;
const databases: TestDatabase[] = [];
const started: RunningService[] = [];

/** The run stage's environment, as the image sets it, on Node 24, with what a deployment must add. */
const imageEnv = (more: Record<string, string>): Record<string, string> => ({
  // The port is the test's to choose (never the image's 3000 on a shared machine).
  ...Object.fromEntries(Object.entries(envOf(runStage)).filter(([name]) => name !== 'PORT')),
  PATH: `${node24Bin}:${process.env.PATH}`,
  AUTH_JWT_SECRET: TEST_JWT_SECRET,
  PERSONAL_DATA_KEYS: TEST_PERSONAL_DATA_KEYS,
  ...more,
});

const runInBuildStage = async (context: string): Promise<void> => {
  const env = { ...process.env, ...envOf(buildStage), APP_DIR: app, PATH: `${node24Bin}:${process.env.PATH}` };
  for (const { keyword, args } of buildStage.instructions)
    if (keyword === 'RUN') await run('bash', ['-c', args], { cwd: context, env, timeout: 240_000 });
};

beforeAll(async () => {
  node24Bin = (await run('bash', [join(repositoryRoot, 'scripts/node24'), 'bin'], { timeout: 120_000 })).stdout.trim();
  work = mkdtempSync(join(tmpdir(), 'cropcover-image-'));
  app = join(work, 'app');
  const context = join(work, 'context');
  copyBuildContext(repositoryRoot, context);
  await runInBuildStage(context);
}, 300_000);

afterAll(async () => {
  await Promise.all(started.map((service) => service.stop()));
  await Promise.all(databases.map((database) => database.drop()));
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

const databaseFor = async (label: string): Promise<string> => {
  const database = await createTestDatabase(label);
  databases.push(database);
  return database.url;
};

const healthcheck = async (port: number): Promise<number> => {
  const [command, ...args] = execFormOf(runStage, 'HEALTHCHECK', 'CMD');
  try {
    await run(command!, args, { cwd: app, env: imageEnv({ PORT: String(port) }), timeout: 10_000 });
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
};

const filesOutside = (dir: string, skip: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === skip) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesOutside(path, skip) : [path];
  });

describe('the production image', () => {
  it('runs the Node 24 that scripts/node24 installs and CI tests', () => {
    expect(pinnedNode24).toMatch(/^24\.\d+\.\d+$/);
    for (const stage of stages) expect(stage.image).toBe(`node:${pinnedNode24}-bookworm-slim`);
  });

  it('runs as an unprivileged user, the build stage left behind', () => {
    const user = runStage.instructions.filter(({ keyword }) => keyword === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(runStage.instructions.filter(({ keyword }) => keyword === 'COPY')).toEqual([
      { keyword: 'COPY', args: `--from=build ${envOf(buildStage).APP_DIR} /app` },
    ]);
  });

  it('holds no compiler, no dev dependency and no TypeScript: only the bundles and production packages', () => {
    for (const tool of ['typescript', 'tsx', 'esbuild', 'vitest', '@biomejs/biome', 'fast-check'])
      expect(existsSync(join(app, 'node_modules', tool)), tool).toBe(false);
    expect(filesOutside(app, 'node_modules').filter((path) => path.endsWith('.ts'))).toEqual([]);
  });

  it('starts every process of docker-compose.yml on Node 24 to /readyz, each healthy by its HEALTHCHECK', async () => {
    const databaseUrl = await databaseFor('image_topology');
    const processes = await Promise.all(
      composeCommands.map(async ([, command]) => {
        const service = await startProcess(command, imageEnv({ DATABASE_URL: databaseUrl }), '/readyz', app);
        started.push(service);
        return service;
      }),
    );
    expect(processes).toHaveLength(composeCommands.length);
    for (const service of processes) expect(await healthcheck(Number(new URL(service.baseUrl).port))).toBe(0);
  }, 180_000);

  it('starts its default command, every role in one, on Node 24 to /readyz; unhealthy once it stops', async () => {
    const databaseUrl = await databaseFor('image_cmd');
    const service = await startProcess(
      execFormOf(runStage, 'CMD'),
      imageEnv({ DATABASE_URL: databaseUrl }),
      '/readyz',
      app,
    );
    started.push(service);
    const port = Number(new URL(service.baseUrl).port);
    expect(await healthcheck(port)).toBe(0);
    await service.stop();
    expect(await healthcheck(port)).toBe(1);
  }, 120_000);

  it('maps a stack trace back to the TypeScript line', async () => {
    const [command, ...args] = execFormOf(runStage, 'HEALTHCHECK', 'CMD');
    const failed = await run(command!, args, { cwd: app, env: imageEnv({ PORT: 'eighty' }), timeout: 10_000 }).then(
      () => ({ stderr: 'exited 0' }),
      (error: { stderr: string }) => error,
    );
    expect(failed.stderr).toMatch(/runtime\/src\/config\.ts:\d+/);
  });
});
