import { type ChildProcess, spawn } from 'node:child_process';
import { repositoryRoot } from '../support/service-process';

// The projector as its own operating-system process, started the way an operator would, so a test can
// kill it without warning (SIGKILL) or ask it to stop (SIGTERM).

export interface ProjectorProcess {
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Sends the signal to the process and every process it started; resolves with the exit code. */
  signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null>;
}

export const startProjectorProcess = (databaseUrl: string): ProjectorProcess => {
  // Its own process group: npx starts a shell, tsx and then node, and a kill must reach all of them.
  const child: ChildProcess = spawn('npx', ['tsx', 'service/src/processes/projector.ts'], {
    cwd: repositoryRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'info' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // 'close' comes once every process holding the output pipes has ended, i.e. the whole tree.
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    output: () => output,
    signal: async (signal) => {
      if (child.pid === undefined) throw new Error(`projector process did not start:\n${output}`);
      process.kill(-child.pid, signal);
      return closed;
    },
  };
};
