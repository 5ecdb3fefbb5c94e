import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPhaseTable, writePhaseTable } from '@cropcover/domain';
import { KHARIF_DEFICIT_SHEET } from '@cropcover/domain/testing';
import { configVariables } from '@cropcover/runtime';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repositoryRoot } from '../support/service-process';

// The README and docker-compose.yml are read by people and tools that never run our tests; these
// checks keep them in step with the code.

const read = (path: string) => readFileSync(join(repositoryRoot, path), 'utf8');

describe('README', () => {
  it('documents exactly the environment variables the config loader reads', () => {
    const table = read('README.md').split('## Configuration')[1]!.split('\n## ')[0]!;
    const documented = [...table.matchAll(/^\|\s*`([A-Z_]+)`/gm)].map((match) => match[1]);
    expect(documented).toEqual(configVariables.map((variable) => variable.name));
  });
});

describe('docs/term-sheets.md', () => {
  it('shows phase tables the code reads, and example B as the API writes it', () => {
    const section = read('docs/term-sheets.md').split('## The phase table')[1]!.split('\n## ')[0]!;
    const [byHand, exampleB] = [...section.matchAll(/```csv\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(readPhaseTable(byHand!)).toHaveProperty('sheet');
    expect(exampleB).toBe(writePhaseTable(KHARIF_DEFICIT_SHEET));
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { command?: string[]; build?: string; image?: string }>;
  };

  it('runs every CropCover process from an entry point that exists', () => {
    const ours = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
    const processes = readdirSync(join(repositoryRoot, 'service/src/processes'))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => file.slice(0, -'.ts'.length));
    expect(ours.map(([name]) => name).sort()).toEqual(processes.sort());
    // The image holds a bundle per process (scripts/production-build.ts); the image test starts them.
    for (const [name, service] of ours) expect(service.command).toEqual(['node', `dist/processes/${name}.mjs`]);
  });

  it('brings up the stores, the broker and a gateway', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'kurrentdb', 'kafka', 'gateway']),
    );
    expect(read('deploy/gateway.nginx.conf')).toMatch(/request_method = GET\) \{ set \$backend query_api/);
  });
});
