import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const script = fileURLToPath(new URL('./testing/lifecycle-process.ts', import.meta.url));

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const start = (env: NodeJS.ProcessEnv) => {
  // One process, as in production: the tsx CLI's parent would relay the signals, and cut its child off with
  // SIGKILL when the child does not acknowledge one within 30 ms (seen on a loaded machine).
  const child = spawn('node', ['--import', 'tsx', script], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  const ready = () =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.includes('"msg":"ready"')) resolve();
      };
      check();
      child.stdout?.on('data', check);
      child.once('exit', () => reject(new Error(`exited before ready: ${stderr}`)));
    });
  return { child, exited, ready };
};

describe('loadConfigOrExit', () => {
  it('exits 1 naming each bad variable', async () => {
    const { exited } = start({ PORT: 'eighty', APP_ENV: 'prod' });
    const { code, stderr } = await exited;
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration:');
    expect(stderr).toContain('PORT: must be a whole number');
    expect(stderr).toContain('APP_ENV: must be sandbox or production');
  });
});

describe('stopOnSignals', () => {
  it('finishes stopping on SIGTERM and exits 0', async () => {
    const { child, exited, ready } = start({ STOP_MS: '200' });
    await ready();
    child.kill('SIGTERM');
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(stdout).toContain('"signal":"SIGTERM"');
    expect(stdout).toContain('"msg":"stopped"');
  });

  it('ignores the same signal arriving again at once (a launcher relaying it), and exits at a later one', async () => {
    const echoed = start({ STOP_MS: '1500' });
    await echoed.ready();
    echoed.child.kill('SIGTERM');
    setTimeout(() => echoed.child.kill('SIGTERM'), 50);
    const finished = await echoed.exited;
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('"msg":"stopped"');

    const impatient = start({ STOP_MS: '10000' });
    await impatient.ready();
    impatient.child.kill('SIGTERM');
    setTimeout(() => impatient.child.kill('SIGTERM'), 1_500);
    const cut = await impatient.exited;
    expect(cut.code).toBe(1);
    expect(cut.stdout).toContain('second signal: exiting without finishing');
  });

  it('exits 1 when stopping fails or takes too long', async () => {
    const failing = start({ STOP_FAILS: '1' });
    await failing.ready();
    failing.child.kill('SIGINT');
    const failed = await failing.exited;
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('stop failed');

    const slow = start({ STOP_MS: '10000', STOP_TIMEOUT_MS: '200' });
    await slow.ready();
    slow.child.kill('SIGTERM');
    const timedOut = await slow.exited;
    expect(timedOut.code).toBe(1);
    expect(timedOut.stdout).toContain('stop timed out');
  });
});
