import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi-document';

// Issue 13: a third-party validator, not our own reading of the spec, judges the generated document.
// Redocly CLI's lint with its recommended rules (contracts/redocly.yaml); any error or warning fails.

const contractsRoot = fileURLToPath(new URL('../../../contracts/', import.meta.url));
const redocly = fileURLToPath(new URL('../../../node_modules/.bin/redocly', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'cropcover-openapi-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe('the OpenAPI document under Redocly CLI lint', () => {
  it('has no error and no warning', async () => {
    const file = join(scratch, 'openapi.json');
    writeFileSync(file, JSON.stringify(openApiDocument('0.0.0-test'), null, 2));
    // lint exits 1 on errors; the JSON report on stdout is read either way.
    const output = await promisify(execFile)(
      redocly,
      ['lint', file, '--format=json', `--config=${join(contractsRoot, 'redocly.yaml')}`],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    ).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
    const report = JSON.parse(output.stdout) as LintReport;
    const problems = report.problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
