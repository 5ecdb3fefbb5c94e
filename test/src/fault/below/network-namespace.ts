import { execFile } from 'node:child_process';
import { access, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { POSTGRES_BIN } from './postgres-cluster';

// The fault suite strikes the network with the kernel's own tools, inside a network namespace made for
// the run (`scripts/cropcover test-faults` makes it and runs the suite in it): its loopback, its
// iptables rules and its queueing disciplines are the suite's alone, so a dropped port drops nothing of
// any other process of the machine.

const run = promisify(execFile);

/** Why the suite cannot strike here, or undefined when it can. */
export const whyFaultsCannotRun = async (): Promise<string | undefined> => {
  if (process.getuid?.() !== 0) return 'the fault suite needs root (network namespace, iptables, runuser postgres)';
  const [own, init] = await Promise.all([
    readlink('/proc/self/ns/net').catch(() => 'unknown'),
    readlink('/proc/1/ns/net').catch(() => 'unreadable'),
  ]);
  if (own === init)
    return 'not inside a network namespace of its own: run it through `scripts/cropcover test-faults`, which makes one';
  try {
    await run('iptables', ['-S']);
  } catch (error) {
    return `iptables does not run (${(error as Error).message}): apt-get install iptables`;
  }
  try {
    await access(join(POSTGRES_BIN, 'initdb'));
  } catch {
    return `no initdb in ${POSTGRES_BIN} (PostgreSQL 15's server tools; POSTGRES_BIN names another place)`;
  }
  return undefined;
};

const iptables = async (...args: string[]): Promise<void> => {
  await run('iptables', ['-w', ...args]);
};

/** Every packet to or from `port` on this namespace's loopback is dropped, not refused: a peer sees
 *  silence, as across a partition. Returns what lets them through again. */
export const dropTrafficOf = async (port: number): Promise<() => Promise<void>> => {
  const rules = [
    ['INPUT', '-p', 'tcp', '--dport', String(port), '-j', 'DROP'],
    ['INPUT', '-p', 'tcp', '--sport', String(port), '-j', 'DROP'],
  ];
  for (const rule of rules) await iptables('-I', ...rule);
  return async () => {
    for (const rule of rules) await iptables('-D', ...rule);
  };
};
