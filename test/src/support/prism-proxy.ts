import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repositoryRoot } from './service-process';

// Stoplight Prism as a validating proxy in front of a running service (issue 13): it forwards every
// request and checks every answer against the OpenAPI document the service itself serves. A status the
// document does not list for the operation, or a body or header off its schema, is a response violation;
// Prism logs it and puts it in the `sl-violations` header. Request violations are not counted: the
// suites send bad requests on purpose, and it is the service's answer to them that must be documented.

export interface PrismProxy {
  readonly baseUrl: string;
  /** Every response violation Prism logged so far, each with the request it answered. */
  readonly responseViolations: () => string[];
  /** How many requests Prism forwarded so far. */
  readonly forwarded: () => number;
  stop(): Promise<void>;
}

/** Prism's log: `[HTTP SERVER] post /farms/create ℹ info Request received`, then its violations. */
const REQUEST_LINE = /\[HTTP SERVER\] (\w+ \S+) .*Request received/;
const RESPONSE_VIOLATION = /\[VALIDATOR\].*Violation: (response.*)$/;

export const startPrismProxy = async (upstreamBaseUrl: string): Promise<PrismProxy> => {
  const document = await fetch(`${upstreamBaseUrl}/openapi.json`);
  if (!document.ok) throw new Error(`GET /openapi.json answered ${document.status}`);
  const scratch = mkdtempSync(join(tmpdir(), 'cropcover-prism-'));
  const documentFile = join(scratch, 'openapi.json');
  writeFileSync(documentFile, await document.text());

  const port = await freePort();
  const child = spawn(
    join(repositoryRoot, 'test/node_modules/.bin/prism'),
    ['proxy', documentFile, upstreamBaseUrl, `--port=${port}`, '--cors=false', '--validate-request=false'],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  let lastRequest = '?';
  let forwarded = 0;
  const violations: string[] = [];
  const readLine = (line: string): void => {
    const request = REQUEST_LINE.exec(line);
    if (request) {
      lastRequest = request[1]!;
      forwarded += 1;
    }
    const violation = RESPONSE_VIOLATION.exec(line);
    // Logs of concurrent requests interleave, so the request named is the latest one, usually the one.
    if (violation) violations.push(`${lastRequest}: ${violation[1]}`);
  };
  let pending = '';
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) readLine(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    rmSync(scratch, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode} before it listened:\n${output}`);
    if (output.includes('Prism is listening'))
      return { baseUrl, responseViolations: () => [...violations], forwarded: () => forwarded, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`Prism did not listen within 90 s:\n${output}`);
};
