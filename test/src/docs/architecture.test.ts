import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repositoryRoot } from '../support/service-process';

// docs/architecture.md promises a shape: packages import only packages below them, the APIs never reach
// into the projector or the workers, and test helpers stay out of production code. These checks keep
// that promise true as the code moves.

const read = (path: string) => readFileSync(join(repositoryRoot, path), 'utf8');

const packages: string[] = parse(read('pnpm-workspace.yaml')).packages;

const workspaceDependencies = (pkg: string): string[] =>
  Object.keys(JSON.parse(read(`${pkg}/package.json`)).dependencies ?? {})
    .filter((name) => name.startsWith('@cropcover/'))
    .map((name) => name.slice('@cropcover/'.length));

const sourceFiles = (dir: string): string[] =>
  readdirSync(join(repositoryRoot, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`;
    if (statSync(join(repositoryRoot, path)).isDirectory()) return entry === 'node_modules' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });

// The end-to-end suites' support (test/src/support) serves tests alone, as a package's testing/ does.
const isTestOnly = (path: string) =>
  path.endsWith('.test.ts') || path.includes('/testing/') || path.startsWith('test/src/support/');

const importsOf = (path: string): string[] =>
  [...read(path).matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1]!);

describe('the package graph', () => {
  it('has no cycle', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (pkg: string, path: string[]): void => {
      if (done.has(pkg)) return;
      expect(visiting.has(pkg), `cycle: ${[...path, pkg].join(' → ')}`).toBe(false);
      visiting.add(pkg);
      for (const dependency of workspaceDependencies(pkg)) visit(dependency, [...path, pkg]);
      visiting.delete(pkg);
      done.add(pkg);
    };
    for (const pkg of packages) visit(pkg, []);
  });

  it('keeps the APIs out of the projector and the workers, and the domain free of infrastructure', () => {
    for (const api of ['command-api', 'query-api'])
      expect(workspaceDependencies(api)).not.toEqual(expect.arrayContaining(['projector']));
    for (const api of ['command-api', 'query-api'])
      expect(workspaceDependencies(api)).not.toEqual(expect.arrayContaining(['workers']));
    expect(workspaceDependencies('domain')).toEqual(['contracts']);
  });

  it('is the map docs/architecture.md draws', () => {
    const map = read('docs/architecture.md');
    for (const pkg of packages) expect(map, pkg).toContain(`\`${pkg}/\``);
  });
});

describe('production code', () => {
  const production = packages.flatMap((pkg) => sourceFiles(`${pkg}/src`)).filter((path) => !isTestOnly(path));

  it('never imports a test helper', () => {
    const offending = production.flatMap((path) =>
      importsOf(path)
        .filter((specifier) => /(^|\/)testing(\/|$)|\.fixture$/.test(specifier))
        .map((specifier) => `${path} → ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('is reached through a deliberate public face: each package index names what it exports', () => {
    // Issue 23: `export *` of a folder made every name of the domain (230) part of its face. Table and
    // port types may still be re-exported as a whole (`export type *`).
    const starred = packages
      .map((pkg) => `${pkg}/src/index.ts`)
      .filter((index) => statSync(join(repositoryRoot, index), { throwIfNoEntry: false }))
      .filter((index) => /^export \* from/m.test(read(index)));
    expect(starred).toEqual([]);
  });

  it('reaches another package only through its name, never by a relative path', () => {
    const offending = production.flatMap((path) =>
      importsOf(path)
        .filter((specifier) => specifier.startsWith('.'))
        .filter((specifier) => {
          const target = relative(repositoryRoot, normalize(join(repositoryRoot, dirname(path), specifier)));
          return target.split('/')[0] !== path.split('/')[0];
        })
        .map((specifier) => `${path} → ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});

// Issue 34: every table has one writing process, and within it one module (a file or a folder) that
// writes it; docs/architecture.md says why. A table a migration creates and this list does not name fails,
// so a new table is declared with its owner; a write from anywhere else fails, naming the file.
const tableOwners: Record<string, { readonly process: string; readonly writers: readonly string[] }> = {
  // The projector: read models rebuilt from the log, one projection each.
  farms: { process: 'projector', writers: ['projector/src/projections/farms-projection.ts'] },
  farm_fields: { process: 'projector', writers: ['projector/src/projections/farms-projection.ts'] },
  farm_organizations: { process: 'projector', writers: ['projector/src/projections/farms-projection.ts'] },
  farmers: { process: 'projector', writers: ['projector/src/projections/farmers-projection.ts'] },
  index_sources: { process: 'projector', writers: ['projector/src/projections/index-sources-projection.ts'] },
  index_source_units: { process: 'projector', writers: ['projector/src/projections/unit-areas-projection.ts'] },
  policies: { process: 'projector', writers: ['projector/src/projections/policies-projection.ts'] },
  policy_evaluations: { process: 'projector', writers: ['projector/src/projections/policies-projection.ts'] },
  policy_payouts: { process: 'projector', writers: ['projector/src/projections/policies-projection.ts'] },
  policy_counts: { process: 'projector', writers: ['projector/src/projections/policy-counts.ts'] },
  product_versions: { process: 'projector', writers: ['projector/src/projections/products-projection.ts'] },
  programmes: { process: 'projector', writers: ['projector/src/projections/programmes-projection.ts'] },
  programme_capacities: { process: 'projector', writers: ['projector/src/projections/programmes-projection.ts'] },
  programme_policies: { process: 'projector', writers: ['projector/src/projections/programmes-projection.ts'] },
  programme_zone_exposure: { process: 'projector', writers: ['projector/src/projections/programmes-projection.ts'] },
  programme_zone_peril_exposure: {
    process: 'projector',
    writers: ['projector/src/projections/programmes-projection.ts'],
  },
  treaties: { process: 'projector', writers: ['projector/src/projections/reinsurance-projection.ts'] },
  reinsurance_ledger: { process: 'projector', writers: ['projector/src/projections/reinsurance-projection.ts'] },
  webhooks: { process: 'projector', writers: ['projector/src/projections/webhooks-projection.ts'] },
  // Each log follower's own row, written by the projection engine in whichever process runs one (the
  // projector, the dispatcher's recorder, the monitor's followers); a blue-green rebuild swaps them.
  projection_checkpoints: {
    process: 'projection engine',
    writers: ['read-store/src/checkpoints.ts', 'projector/src/shadow-read-models.ts'],
  },
  // The command API: records that are not events.
  idempotency_keys: { process: 'command-api', writers: ['command-api/src/idempotency/'] },
  index_readings: { process: 'command-api', writers: ['application/src/index-readings/record-index-readings.ts'] },
  index_reading_revisions: {
    process: 'command-api',
    writers: ['application/src/index-readings/record-index-readings.ts'],
  },
  // Kept by triggers on index_readings (migration 0015), never by code.
  index_reading_versions: { process: 'command-api', writers: [] },
  index_file_ingestions: { process: 'command-api', writers: ['application/src/index-files/'] },
  // A grid source's locations of interest (INDEX-DATA §2.2): the area registered, the cells kept and backfilled.
  index_source_areas_of_interest: {
    process: 'command-api',
    writers: ['application/src/locations-of-interest/area-of-interest.ts'],
  },
  index_cells_of_interest: { process: 'command-api', writers: ['application/src/locations-of-interest/'] },
  webhook_secrets: { process: 'command-api', writers: ['application/src/webhooks/webhook-secret.ts'] },
  farmer_keys: { process: 'command-api', writers: ['application/src/personal-data/farmer-keys.ts'] },
  climatology_requests: { process: 'command-api', writers: ['read-store/src/queries/climatologies.ts'] },
  product_backtest_requests: { process: 'command-api', writers: ['read-store/src/queries/product-backtests.ts'] },
  portfolio_backtest_requests: { process: 'command-api', writers: ['read-store/src/queries/portfolio-backtests.ts'] },
  // The monitor: its rounds, its cache of policy streams, the jobs it runs.
  policy_monitor_rounds: { process: 'monitor', writers: ['workers/src/monitor/policy-claim.ts'] },
  policy_monitor_days: { process: 'monitor', writers: ['workers/src/monitor/monitored-days.ts'] },
  policy_snapshots: { process: 'monitor', writers: ['workers/src/monitor/policy-snapshots.ts'] },
  portfolio_backtest_runs: { process: 'monitor', writers: ['read-store/src/queries/portfolio-backtests.ts'] },
  climatology_runs: { process: 'monitor', writers: ['read-store/src/queries/climatologies.ts'] },
  climatologies: { process: 'monitor', writers: ['read-store/src/queries/climatologies.ts'] },
  climatology_normals: { process: 'monitor', writers: ['read-store/src/queries/climatologies.ts'] },
  product_backtest_runs: { process: 'monitor', writers: ['read-store/src/queries/product-backtests.ts'] },
  product_backtest_locations: { process: 'monitor', writers: ['read-store/src/queries/product-backtests.ts'] },
  // The webhook dispatcher: its delivery ledger.
  webhook_targets: { process: 'webhook-dispatcher', writers: ['workers/src/webhook-dispatcher/delivery-recorder.ts'] },
  webhook_breach_positions: {
    process: 'webhook-dispatcher',
    writers: ['workers/src/webhook-dispatcher/delivery-recorder.ts'],
  },
  webhook_deliveries: { process: 'webhook-dispatcher', writers: ['workers/src/webhook-dispatcher/'] },
  webhook_delivery_attempts: {
    process: 'webhook-dispatcher',
    writers: ['workers/src/webhook-dispatcher/attempt-recorder.ts'],
  },
  // The audit integrator: the log's tree and its signed checkpoints, never emptied by a rebuild.
  audit_leaves: { process: 'audit-integrator', writers: ['projector/src/audit-log/'] },
  audit_tree: { process: 'audit-integrator', writers: ['projector/src/audit-log/'] },
  audit_signing_keys: { process: 'audit-integrator', writers: ['projector/src/audit-log/'] },
  audit_checkpoints: {
    process: 'audit-integrator',
    writers: ['projector/src/audit-log/', 'read-store/src/checkpoint-publications.ts'],
  },
  audit_checkpoint_sink_status: { process: 'audit-integrator', writers: ['projector/src/audit-log/'] },
  // Its one row is written by migration 0042 and never again.
  audit_log_identity: { process: 'audit-integrator', writers: [] },
};

/** The tables the read store's migrations create (by the query builder, in SQL, or through a helper). */
const migratedTables = (): Set<string> => {
  const tables = new Set<string>();
  for (const path of sourceFiles('read-store/src/migrations').filter((file) => !isTestOnly(file))) {
    const text = read(path);
    for (const pattern of [
      /createTable\(\s*'(\w+)'/g,
      /create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?(\w+)/gi,
      /\w+Table\(\s*db,\s*'(\w+)'/g,
    ])
      for (const match of text.matchAll(pattern)) tables.add(match[1]!);
    for (const match of text.matchAll(/rename\s+to\s+(\w+)/gi)) tables.add(match[1]!);
  }
  return tables;
};

/** The code of a file without its comments, where a sentence may read like a statement. */
const codeOf = (path: string): string =>
  read(path)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');

/** Each write a file's code makes: Kysely's builders naming a table, and SQL statements naming one. */
const writesIn = (path: string, known: Set<string>): { table: string; path: string }[] => {
  const code = codeOf(path);
  const named = [...code.matchAll(/\.(?:insertInto|updateTable|deleteFrom|mergeInto|replaceInto)\(\s*'(\w+)/g)].map(
    (match) => match[1]!,
  );
  const inSql = [
    ...code.matchAll(
      /\b(?:insert\s+into|delete\s+from|truncate(?:\s+table)?|merge\s+into)\s+(?:only\s+)?(?:\$\{sql\.table\(`\$\{\w+\}\.)?(\w+)/gi,
    ),
    ...code.matchAll(/\bupdate\s+(?:only\s+)?(\w+)(?:\s+(?:as\s+)?\w+)?\s+set\b/gi),
  ]
    .map((match) => match[1]!)
    .filter((table) => known.has(table));
  return [...named, ...inSql].map((table) => ({ table, path }));
};

describe('who writes which table', () => {
  const production = packages
    .flatMap((pkg) => sourceFiles(`${pkg}/src`))
    .filter((path) => !isTestOnly(path) && !path.startsWith('read-store/src/migrations/'));
  const migrated = migratedTables();
  // Tables renamed away by a migration (0008's legacy_*) are kept for the record and written by no code.
  const retired = [...migrated].filter((table) => table.startsWith('legacy_'));

  it('names one owning process for every table the migrations create, and no table they do not', () => {
    const live = [...migrated].filter((table) => !retired.includes(table)).sort();
    expect(Object.keys(tableOwners).sort()).toEqual(live);
  });

  it('finds each table written only by its owner', () => {
    const writes = production.flatMap((path) => writesIn(path, migrated));
    const strays = writes
      .filter(({ table, path }) => {
        const owner = tableOwners[table];
        return !owner?.writers.some((writer) => (writer.endsWith('/') ? path.startsWith(writer) : path === writer));
      })
      .map(({ table, path }) => `${table} ← ${path} (owner: ${tableOwners[table]?.process ?? 'none declared'})`);
    expect([...new Set(strays)]).toEqual([]);
  });

  it('has no declared writer that writes nothing', () => {
    const writes = production.flatMap((path) => writesIn(path, migrated));
    const idle = Object.entries(tableOwners).flatMap(([table, owner]) =>
      owner.writers
        .filter(
          (writer) =>
            !writes.some(
              (write) =>
                write.table === table && (writer.endsWith('/') ? write.path.startsWith(writer) : write.path === writer),
            ),
        )
        .map((writer) => `${table}: ${writer}`),
    );
    expect(idle).toEqual([]);
  });
});
