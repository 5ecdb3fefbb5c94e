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

const tc = async (...args: string[]): Promise<void> => {
  await run('tc', args);
};

/** Why this kernel cannot rate-limit one port (no `sch_htb`), or undefined when it can. */
export const whyRateLimitCannotRun = async (): Promise<string | undefined> => {
  try {
    await tc('qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'htb');
    await tc('qdisc', 'del', 'dev', 'lo', 'root');
    return undefined;
  } catch (error) {
    return `NOT RUN: PostgreSQL slow — tc cannot add an htb qdisc here (${(error as Error).message.trim()})`;
  }
};

/** Traffic to and from `port` on this namespace's loopback is held to `rate` (tc's units, e.g. 3500bit)
 *  by a token bucket (htb), everything else passes at once. A rate limit, not netem's fixed delay per
 *  packet (this kernel has no netem): a lone small round trip waits about its bytes over the rate, a
 *  loaded link queues and waits longer. Returns what lifts it; queued packets then leave at once. */
export const slowTrafficOf = async (port: number, rate: string): Promise<() => Promise<void>> => {
  await tc('qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'htb', 'default', '10');
  await tc(
    'class',
    'add',
    'dev',
    'lo',
    'parent',
    '1:',
    'classid',
    '1:10',
    'htb',
    'rate',
    '10gbit',
    'quantum',
    '200000',
  );
  // The smallest burst htb takes for a 1500-byte packet: the bucket starts nearly empty.
  const slow = ['rate', rate, 'ceil', rate, 'burst', '1600', 'cburst', '1600', 'quantum', '1600'];
  await tc('class', 'add', 'dev', 'lo', 'parent', '1:', 'classid', '1:20', 'htb', ...slow);
  for (const end of ['sport', 'dport'])
    await tc(
      'filter',
      'add',
      'dev',
      'lo',
      'parent',
      '1:',
      'protocol',
      'ip',
      'u32',
      'match',
      'ip',
      end,
      String(port),
      '0xffff',
      'flowid',
      '1:20',
    );
  return async () => {
    await tc('qdisc', 'del', 'dev', 'lo', 'root');
  };
};
