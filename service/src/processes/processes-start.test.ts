import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Every process is built by the one composition root, so each refuses a bad environment the same way:
// exit status 1 and a message naming the variable, before it touches any database.

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const PROCESSES = ['command-api', 'query-api', 'projector', 'monitor', 'webhook-dispatcher'] as const;

const startOf = async (process_: string, env: NodeJS.ProcessEnv) => {
  try {
    await promisify(execFile)('node_modules/.bin/tsx', [`service/src/processes/${process_}.ts`], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
      timeout: 30_000,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr };
  }
};

// One process at a time: each is a tsx start of its own, and ten at once starve a two-core machine.
describe('each process of the production topology', () => {
  it.each(PROCESSES)(
    '%s exits 1 naming DATABASE_URL when it has none',
    async (name) => {
      const { code, stderr } = await startOf(name, {});
      expect(code).toBe(1);
      expect(stderr).toContain('DATABASE_URL: required when a process runs only');
    },
    60_000,
  );

  it('exits 1 naming a bad PORT before it looks for a database', async () => {
    const { code, stderr } = await startOf('command-api', { PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stderr).toContain('PORT');
  }, 60_000);
});
