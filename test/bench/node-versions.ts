import { execFile, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from '../src/support/service-process';

// Issue 22: the event-store bench (eventstore/bench/append-vs-ceiling.ts) and the farm-create bench
// (test/bench/farm-create-vs-anchor.ts) on the machine's Node and on Node 24 LTS (scripts/node24) in one
// command, each bench's runs alternating between the two Nodes round by round (20, 24, then 24, 20, …)
// so the machine's load meets both alike. A run of a bench on one Node has everything of it on that
// Node: the bench, and for farm create the service (`npm start`) and its anchor, through PATH.
// Run: node --import tsx test/bench/node-versions.ts   (BENCH_EVENTSTORE_ROUNDS 4, BENCH_FARM_ROUNDS 2)

const EVENTSTORE_ROUNDS = Number(process.env.BENCH_EVENTSTORE_ROUNDS ?? 4);
const FARM_ROUNDS = Number(process.env.BENCH_FARM_ROUNDS ?? 2);
const run = promisify(execFile);

const machinePath = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => !dir.includes('/.tools/'))
  .join(':');
const machineNode = (await run('bash', ['-c', 'command -v node'], { env: { PATH: machinePath } })).stdout.trim();
const node24Bin = (await run('bash', [join(repositoryRoot, 'scripts/node24'), 'bin'])).stdout.trim();
const nodes = [
  { dir: dirname(machineNode), version: '' },
  { dir: node24Bin, version: '' },
];
for (const node of nodes) node.version = (await run(join(node.dir, 'node'), ['--version'])).stdout.trim();

/** Runs one bench script on one Node, its output shown as it comes and returned. */
const benchOn = (node: (typeof nodes)[number], script: string, env: Record<string, string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn('node', ['--import', 'tsx', script], {
      cwd: repositoryRoot,
      env: { ...process.env, ...env, PATH: `${node.dir}:${machinePath}` },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${script} exited ${code}`))));
  });

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** For each round, both Nodes, the first of them alternating. */
const alternating = async (rounds: number, each: (node: (typeof nodes)[number]) => Promise<void>) => {
  for (let round = 0; round < rounds; round += 1)
    for (const node of round % 2 === 0 ? nodes : [...nodes].reverse()) {
      console.log(`\n--- round ${round + 1}, Node ${node.version}`);
      await each(node);
    }
};

const started = new Date();
const loadAtStart = loadavg().map((load) => load.toFixed(1));

// Event store: one timed round per run, so the rounds of both Nodes interleave.
const storeCases = ['ours', 'emmett', 'raw'] as const;
const store = new Map(nodes.map((node) => [node.version, { rates: new Map<string, number[]>(), cpu: [] as number[] }]));
await alternating(EVENTSTORE_ROUNDS, async (node) => {
  const output = await benchOn(node, 'eventstore/bench/append-vs-ceiling.ts', { ROUNDS: '1' });
  const figures = store.get(node.version)!;
  for (const name of storeCases) {
    const line = new RegExp(`^${name}\\s*: median (\\d+) events/s.*CPU per event: Node ([\\d.]+) ms`, 'm').exec(output);
    if (!line) throw new Error(`no ${name} line in the event-store bench's output`);
    figures.rates.set(name, [...(figures.rates.get(name) ?? []), Number(line[1])]);
    if (name === 'ours') figures.cpu.push(Number(line[2]));
  }
});

// Farm create: one timed round (anchor, then service) per run.
const farm = new Map(
  nodes.map((node) => [
    node.version,
    { rates: [] as number[], p99: [] as number[], ratio: [] as number[], cpu: [] as number[] },
  ]),
);
await alternating(FARM_ROUNDS, async (node) => {
  const output = await benchOn(node, 'test/bench/farm-create-vs-anchor.ts', { BENCH_ROUNDS: '1' });
  const line = /^\| 1 \| service \| (\d+) \| [\d.]+ \| ([\d.]+) \| ([\d.]+) \|.*\| ([\d.]+) \|$/m.exec(output);
  if (!line) throw new Error("no service line in the farm-create bench's output");
  const figures = farm.get(node.version)!;
  figures.rates.push(Number(line[1]));
  figures.p99.push(Number(line[2]));
  figures.ratio.push(Number(line[3]));
  figures.cpu.push(Number(line[4]));
});

const all = (values: number[]) => values.join(', ');
console.log(`\n${cpus().length} × ${cpus()[0]?.model}; started ${started.toISOString()}`);
console.log(
  `load average at start ${loadAtStart.join(' ')}, at end ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}`,
);
console.log(`\nEvent store, 8 writers, ${EVENTSTORE_ROUNDS} rounds per Node (median; every round)`);
console.log(
  '| Node | ours events/s | Emmett events/s | raw INSERT events/s | ours / Emmett | ours / raw | Node CPU ms per event (ours) |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [version, { rates, cpu }] of store) {
  const [ours, emmett, raw] = storeCases.map((name) => rates.get(name)!);
  console.log(
    `| ${version} | ${median(ours!)} (${all(ours!)}) | ${median(emmett!)} (${all(emmett!)}) | ${median(raw!)} (${all(raw!)}) | ${(median(ours!) / median(emmett!)).toFixed(2)} | ${(median(ours!) / median(raw!)).toFixed(2)} | ${median(cpu).toFixed(3)} |`,
  );
}
console.log(`\nFarm create, 16 connections, ${FARM_ROUNDS} runs per Node (median; every run)`);
console.log('| Node | req/s | p99 ms | ratio to its anchor | CPU ms per create |');
console.log('|---|---|---|---|---|');
for (const [version, { rates, p99, ratio, cpu }] of farm)
  console.log(
    `| ${version} | ${median(rates)} (${all(rates)}) | ${median(p99)} (${all(p99)}) | ${median(ratio).toFixed(2)} (${all(ratio)}) | ${median(cpu).toFixed(2)} (${all(cpu)}) |`,
  );
