import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from '@cropcover/runtime/testing';
import { freePort, repositoryRoot, TEST_JWT_SECRET, TEST_PERSONAL_DATA_KEYS } from '../src/support/service-process';

// Issue 22: what the production image should run, measured on Node 24 (the image's Node). The command
// API process from start to its first 200 on /readyz, and its memory then, started as the old image did
// (the tsx command on the TypeScript sources), through tsx's loader in one process, and as the new image
// does (the esbuild bundle), with and without source maps; rounds interleaved, one database.
// Run: npx tsx test/bench/production-start.ts   (BENCH_ROUNDS 5; BENCH_BUILD_DIR reuses a build)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const run = promisify(execFile);

const node24Bin = (await run('bash', [join(repositoryRoot, 'scripts/node24'), 'bin'])).stdout.trim();
const work = mkdtempSync(join(tmpdir(), 'cropcover-start-bench-'));
const app = process.env.BENCH_BUILD_DIR ?? join(work, 'app');
if (!process.env.BENCH_BUILD_DIR)
  await run('bash', ['scripts/cropcover', 'build', app], {
    cwd: repositoryRoot,
    env: { ...process.env, PATH: `${node24Bin}:${process.env.PATH}` },
  });
const database = await createTestDatabase('bench_start');

interface Variant {
  readonly name: string;
  readonly cwd: string;
  readonly argv: readonly string[];
}
const variants: Variant[] = [
  {
    name: 'tsx command, sources (old image)',
    cwd: repositoryRoot,
    argv: ['node_modules/.bin/tsx', 'service/src/processes/command-api.ts'],
  },
  {
    name: 'tsx loader, sources',
    cwd: repositoryRoot,
    argv: ['node', '--import', 'tsx', 'service/src/processes/command-api.ts'],
  },
  { name: 'bundle', cwd: app, argv: ['node', 'dist/processes/command-api.mjs'] },
  {
    name: 'bundle, --enable-source-maps (new image)',
    cwd: app,
    argv: ['node', '--enable-source-maps', 'dist/processes/command-api.mjs'],
  },
];

/** Resident memory of a process and its children, in MiB (the tsx command is two processes). */
const rssMiB = async (pid: number): Promise<number> => {
  const { stdout } = await run('ps', ['-o', 'rss=', '--pid', String(pid), '--ppid', String(pid)]);
  return (
    stdout
      .trim()
      .split(/\s+/)
      .map(Number)
      .reduce((sum, kib) => sum + kib, 0) / 1024
  );
};

const startOnce = async ({ cwd, argv: [command, ...args] }: Variant): Promise<{ ms: number; rss: number }> => {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command!, args, {
    cwd,
    env: {
      PATH: `${node24Bin}:${process.env.PATH}`,
      PORT: String(port),
      DATABASE_URL: database.url,
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      APP_ENV: 'production',
      PERSONAL_DATA_KEYS: TEST_PERSONAL_DATA_KEYS,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ms = performance.now() - started;
    return { ms, rss: await rssMiB(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
};

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
try {
  // The first start migrates the database and fills tsx's cache; neither is what a restart costs.
  for (const variant of variants) await startOnce(variant);
  const results = new Map(variants.map((variant) => [variant.name, [] as { ms: number; rss: number }[]]));
  for (let round = 0; round < ROUNDS; round += 1)
    for (let k = 0; k < variants.length; k += 1) {
      const variant = variants[(round + k) % variants.length]!;
      results.get(variant.name)!.push(await startOnce(variant));
    }
  const dist = JSON.parse(readFileSync(join(app, 'dist/npm-packages.json'), 'utf8'));
  console.log(
    `command API on Node ${(await run(join(node24Bin, 'node'), ['--version'])).stdout.trim()}, ${ROUNDS} rounds`,
  );
  console.log(`bundles import ${Object.keys(dist).length} npm packages`);
  console.log('| how it starts | start → /readyz, median (all) | RSS at ready, median |');
  console.log('|---|---|---|');
  for (const [name, runs] of results)
    console.log(
      `| ${name} | ${Math.round(median(runs.map(({ ms }) => ms)))} ms (${runs.map(({ ms }) => Math.round(ms)).join(', ')}) | ${Math.round(median(runs.map(({ rss }) => rss)))} MiB |`,
    );
} finally {
  await database.drop();
  rmSync(work, { recursive: true, force: true });
}
