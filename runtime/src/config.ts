import { hostname } from 'node:os';
import { join } from 'node:path';
import { parseSignerKey } from '@cropcover/verifiable-log';
import { z } from 'zod';

// Configuration comes only from environment variables. `configVariables` is the one list of them:
// names, defaults (as they would be written in the environment) and descriptions. The README table is
// generated from it or checked against it, and `loadConfig` takes its defaults from it.

export type AppEnv = 'sandbox' | 'production';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Public, documented HS256 secret: accepted only in the sandbox, so dev tokens work out of the box. */
export const SANDBOX_JWT_SECRET = 'cropcover-sandbox-secret-do-not-use-in-production';

/** The public sandbox key that signs audit checkpoints when AUDIT_SIGNING_KEY is unset (never in production). */
export const SANDBOX_AUDIT_SIGNING_KEY =
  'PRIVATE+KEY+cropcover.example/audit/v1+af582b7c+AS8Apeh4WyPus3HuxqosloKsE/Cu9cy5EKgdO9Y9iYHc';

/** The public sandbox key-encryption key of farmers' personal data when PERSONAL_DATA_KEYS is unset
 *  (never in production): `<id>:<base64 of 32 bytes>`. */
export const SANDBOX_PERSONAL_DATA_KEY = 'sandbox1:Y3JvcGNvdmVyLXNhbmRib3gtcGVyc29uYWwtZGF0YS0=';

/** Shortest HS256 secret accepted in production (256 bits of ASCII, as RFC 7518 §3.2 asks). */
export const MIN_PRODUCTION_SECRET_LENGTH = 32;

export interface ConfigVariable {
  readonly name: string;
  /** The value used when the variable is unset or empty, written as in the environment. */
  readonly default?: string;
  readonly description: string;
  /** Secret values are never echoed in error messages. */
  readonly secret?: boolean;
}

export const configVariables = [
  { name: 'PORT', default: '3000', description: 'HTTP port of the service (0 picks a free port).' },
  { name: 'APP_ENV', default: 'sandbox', description: '`sandbox` or `production`; becomes `environment` on policies.' },
  {
    name: 'DATABASE_URL',
    description: 'PostgreSQL URL (`postgres://…`). Unset: an embedded PostgreSQL is started with data under DATA_DIR.',
    secret: true,
  },
  {
    name: 'EVENTSTORE_URL',
    description:
      'Event store. Unset: the PostgreSQL `events` table of DATABASE_URL. `kurrentdb://…` or `esdb://…` selects KurrentDB/EventStoreDB.',
    secret: true,
  },
  {
    name: 'KAFKA_BROKERS',
    description:
      'Comma-separated `host:port` list. Unset: no Kafka; the webhook dispatcher reads breaches from the event store.',
  },
  {
    name: 'KAFKA_TOPIC_PARTITIONS',
    default: '3',
    description: 'Partitions of the integration topics the projector creates (only with KAFKA_BROKERS).',
  },
  {
    name: 'KAFKA_TOPIC_PREFIX',
    description:
      "Put before the integration topic names and the webhook dispatcher's consumer group, for deployments (or test runs) sharing one broker. Unset: the documented names.",
  },
  {
    name: 'KAFKA_GROUP_INSTANCE_ID',
    description:
      "The webhook dispatcher's static member id in its consumer group: a dispatcher restarted under the same id takes its partitions back at once, with no rebalance. Each dispatcher process needs its own, the same across its restarts. Unset: the host name (one dispatcher per host or container); set it when one host runs two.",
  },
  {
    name: 'AUTH_JWT_SECRET',
    description: `HS256 secret for bearer tokens. In the sandbox it defaults to the public dev secret \`${SANDBOX_JWT_SECRET}\`; in production set AUTH_JWKS_URL or a secret of at least ${MIN_PRODUCTION_SECRET_LENGTH} characters.`,
    secret: true,
  },
  {
    name: 'AUTH_JWKS_URL',
    description: 'JWKS URL of the identity provider (RS256/ES256). When set, tokens are verified against it only.',
  },
  { name: 'AUTH_ISSUER', description: 'Required `iss` claim, checked when set.' },
  { name: 'AUTH_AUDIENCE', description: 'Required `aud` claim, checked when set.' },
  {
    name: 'METRICS_TOKEN',
    description:
      'Bearer token `/metrics` asks for once set. Unset: `/metrics` is open in the sandbox and closed (401) in production.',
    secret: true,
  },
  { name: 'RATE_LIMIT_PER_MINUTE', default: '600', description: 'Requests per minute per token subject.' },
  {
    name: 'READ_YOUR_WRITES_TIMEOUT_MS',
    default: '5000',
    description: 'How long a write (or a read with `Consistency-Token`) waits for the read models to catch up.',
  },
  {
    name: 'HTTP_WORKERS',
    default: '1',
    description:
      'HTTP worker processes `npm start` runs beside the one process that runs the projector and the workers (node:cluster).',
  },
  {
    name: 'DATABASE_WAIT_MS',
    default: '5000',
    description:
      'How long a service process waits for a database connection, or for the answer to one query, before it gives up (a request answers 503 with Retry-After; SPEC §10).',
  },
  {
    name: 'HTTP_REQUEST_TIMEOUT_MS',
    default: '30000',
    description: 'How long a client has to send a whole request (headers and body) before it gets a 408.',
  },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug, trace or silent.' },
  {
    name: 'DATA_DIR',
    default: '.data',
    description: 'Local state; the embedded PostgreSQL keeps its data in `<DATA_DIR>/postgres`.',
  },
  {
    name: 'INDEX_FILE_JOB_BYTES',
    default: '67108864',
    description:
      'Index files larger than this (bytes, decompressed) are ingested as a job: 202 and a Location to follow; smaller ones are answered when done. Files are kept under `<DATA_DIR>/index-files`.',
  },
  {
    name: 'HISTORY_BACKFILL_WAIT_MS',
    default: '10000',
    description:
      'How long a quote or issue on a grid cell whose history is not yet read from the kept files waits for that backfill before it answers 503 `history_backfilling` with Retry-After (the backfill goes on).',
  },
  {
    name: 'EMBEDDED_POSTGRES_PORT',
    default: '5433',
    description: 'Port of the embedded PostgreSQL (only without DATABASE_URL).',
  },
  { name: 'MONITOR_ENABLED', default: 'true', description: '`false` turns the in-process policy monitor off.' },
  {
    name: 'WEBHOOK_ALLOW_INSECURE',
    default: 'false',
    description: '`true` allows `http` and private/loopback webhook URLs (local development and tests only).',
  },
  {
    name: 'WEBHOOK_RETRY_SCALE',
    default: '1',
    description: 'Multiplies the webhook retry delays (5 s … 10 h); e.g. 0.001 in tests.',
  },
  {
    name: 'WEBHOOK_SENDS_AT_ONCE',
    default: '256',
    description:
      'Webhook deliveries one dispatcher process holds at once, being sent or next in line, to all endpoints together.',
  },
  {
    name: 'WEBHOOK_SENDS_PER_ENDPOINT',
    default: '8',
    description:
      'Webhook requests one dispatcher process has in flight to one endpoint (URL) at once: a slow receiver never sees more from it.',
  },
  {
    name: 'INDEX_SOURCE_DEFAULTS',
    description:
      "Default index source per index, e.g. `rainfall_mm=<source_id>,ndvi=<source_id>`: what a quote or issue naming no source for a peril reads. Unset: the policy organization's own field readings.",
  },
  {
    name: 'AUDIT_SIGNING_KEY',
    description:
      "C2SP signed-note signer key (`PRIVATE+KEY+<name>+<key id>+<base64>`, Ed25519) that signs the audit log's checkpoints; their origin is its name, then `/<log id>`. In the sandbox it defaults to a public key; in production, unset leaves the audit integrator off.",
    secret: true,
  },
  {
    name: 'PERSONAL_DATA_KEYS',
    description:
      "Key-encryption keys of farmers' personal data (SPEC §6 erasure), `<id>:<base64 of 32 bytes>` comma-separated: the first wraps new farmer keys, every one unwraps (rotation: put the new key first, keep the old ones). In the sandbox it defaults to a public key; production must set it.",
    secret: true,
  },
  {
    name: 'AUDIT_CHECKPOINT_DIR',
    description:
      "The checkpoint sink of this database's audit log: a directory each signed checkpoint is written to once, as `<size>.checkpoint` (object storage with a retention lock in production). One log, one sink: a directory holding another log's checkpoints is refused at start. Unset: `<DATA_DIR>/audit-checkpoints/<log id>`.",
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    description:
      'Base URL of an OTLP/HTTP collector (e.g. `http://localhost:4318`); traces go to `<url>/v1/traces`. Unset, with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT unset too: tracing is off. The exporter reads the other standard `OTEL_EXPORTER_OTLP_*` variables (headers, timeout) itself.',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    description: 'Full URL traces are sent to (`…/v1/traces`), instead of the one OTEL_EXPORTER_OTLP_ENDPOINT implies.',
  },
  { name: 'OTEL_SDK_DISABLED', default: 'false', description: '`true` keeps tracing off even with an endpoint set.' },
  { name: 'OTEL_SERVICE_NAME', default: 'cropcover', description: '`service.name` of the exported spans.' },
  {
    name: 'OTEL_TRACES_SAMPLER',
    default: 'parentbased_always_on',
    description:
      '`always_on`, `always_off`, `traceidratio`, `parentbased_always_on`, `parentbased_always_off` or `parentbased_traceidratio`, as the OpenTelemetry specification defines them.',
  },
  {
    name: 'OTEL_TRACES_SAMPLER_ARG',
    default: '1',
    description: 'The ratio (0 to 1) of the `traceidratio` samplers; the others ignore it.',
  },
] as const satisfies readonly ConfigVariable[];

type VariableName = (typeof configVariables)[number]['name'];

export interface AuthConfig {
  /** HS256 secret; absent only when jwksUrl is set. */
  readonly jwtSecret: string | undefined;
  readonly jwksUrl: string | undefined;
  readonly issuer: string | undefined;
  readonly audience: string | undefined;
}

export type TraceSampler =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

/** The OTLP endpoints themselves are left to the exporter, which reads them with the rest of
 *  `OTEL_EXPORTER_OTLP_*` and knows when to add `/v1/traces`. */
export interface TracingConfig {
  /** An OTLP endpoint is set and OTEL_SDK_DISABLED is not: register the SDK; otherwise the API's no-op. */
  readonly enabled: boolean;
  readonly serviceName: string;
  readonly sampler: TraceSampler;
  readonly samplerRatio: number;
}

export interface Config {
  readonly port: number;
  readonly appEnv: AppEnv;
  /** undefined: start the embedded PostgreSQL. */
  readonly databaseUrl: string | undefined;
  /** KurrentDB/EventStoreDB connection string; undefined: the PostgreSQL event store in DATABASE_URL. */
  readonly eventStoreUrl: string | undefined;
  /** Empty: Kafka is not used. */
  readonly kafkaBrokers: readonly string[];
  /** Partitions of the integration topics when they are created. */
  readonly kafkaTopicPartitions: number;
  /** Before every integration topic name and the dispatcher's consumer group; empty in most deployments. */
  readonly kafkaTopicPrefix: string;
  /** The dispatcher's static member id in its consumer group: unique per dispatcher, stable across restarts. */
  readonly kafkaGroupInstanceId: string;
  readonly auth: AuthConfig;
  readonly rateLimitPerMinute: number;
  readonly metricsToken: string | undefined;
  readonly readYourWritesTimeoutMs: number;
  readonly databaseWaitMs: number;
  readonly httpRequestTimeoutMs: number;
  /** HTTP worker processes of the all-in-one service (`npm start`); the processes of the production
   *  topology ignore it. */
  readonly httpWorkers: number;
  readonly logLevel: LogLevel;
  readonly dataDir: string;
  /** INDEX_FILE_JOB_BYTES. */
  readonly indexFileJobBytes: number;
  /** Where ingested index files are kept by their SHA-256: `<DATA_DIR>/index-files`. */
  readonly indexFileDir: string;
  /** HISTORY_BACKFILL_WAIT_MS. */
  readonly historyBackfillWaitMs: number;
  readonly embeddedPostgresPort: number;
  readonly monitorEnabled: boolean;
  readonly webhookAllowInsecure: boolean;
  readonly webhookRetryScale: number;
  readonly webhookSendsAtOnce: number;
  readonly webhookSendsPerEndpoint: number;
  /** Source id per index (`rainfall_mm`, `ndvi`, `wind_speed_ms`); an index left out has no default. */
  readonly indexSourceDefaults: Readonly<Record<string, string>>;
  readonly tracing: TracingConfig;
  /** Signs the audit log's checkpoints; undefined in production without AUDIT_SIGNING_KEY (no integrator). */
  readonly auditSigningKey: string | undefined;
  /** The checkpoint sink set in the environment; undefined: one per log under DATA_DIR (its id is in the database). */
  readonly auditCheckpointDir: string | undefined;
  /** Wrap and unwrap the per-farmer keys of personal data; the first wraps new ones. */
  readonly personalDataKeys: readonly PersonalDataKey[];
}

export interface PersonalDataKey {
  readonly id: string;
  /** 32 bytes: AES-256-GCM. */
  readonly key: Buffer;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

const flag = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((value) => value === 'true');

const urlWithScheme = (schemes: readonly string[]) =>
  z.string().refine((value) => URL.canParse(value) && schemes.includes(new URL(value).protocol.slice(0, -1)), {
    error: `must be a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(', ')}`,
  });

const postgresSchemes = ['postgres', 'postgresql'];
const kurrentSchemes = ['kurrentdb', 'kurrentdb+discover', 'esdb', 'esdb+discover'];

// `satisfies` makes the compiler hold the schema and the table to exactly the same names.
const schema = z
  .object({
    PORT: integer(0, 65535),
    APP_ENV: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }),
    DATABASE_URL: urlWithScheme(postgresSchemes).optional(),
    EVENTSTORE_URL: urlWithScheme(kurrentSchemes).optional(),
    KAFKA_BROKERS: z
      .string()
      .transform((value) => value.split(',').map((broker) => broker.trim()))
      .refine((brokers) => brokers.every((broker) => /^[A-Za-z0-9.-]+:\d{1,5}$/.test(broker)), {
        error: 'must be a comma-separated list of host:port',
      })
      .optional(),
    KAFKA_TOPIC_PARTITIONS: integer(1, 1000),
    KAFKA_TOPIC_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, { error: 'must be up to 100 of A-Z a-z 0-9 . _ -' })
      .optional(),
    // Kafka's own limit for a group.instance.id is 249 characters, the same as for a topic name.
    KAFKA_GROUP_INSTANCE_ID: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,249}$/, { error: 'must be up to 249 of A-Z a-z 0-9 . _ : -' })
      .optional(),
    AUTH_JWT_SECRET: z.string().optional(),
    AUTH_JWKS_URL: urlWithScheme(['https', 'http']).optional(),
    AUTH_ISSUER: z.string().optional(),
    AUTH_AUDIENCE: z.string().optional(),
    METRICS_TOKEN: z.string().optional(),
    RATE_LIMIT_PER_MINUTE: integer(1, 1_000_000),
    READ_YOUR_WRITES_TIMEOUT_MS: integer(0, 60_000),
    DATABASE_WAIT_MS: integer(100, 600_000),
    HTTP_REQUEST_TIMEOUT_MS: integer(1_000, 600_000),
    HTTP_WORKERS: integer(1, 64),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    }),
    DATA_DIR: z.string(),
    INDEX_FILE_JOB_BYTES: integer(0, 1024 ** 3),
    HISTORY_BACKFILL_WAIT_MS: integer(0, 600_000),
    EMBEDDED_POSTGRES_PORT: integer(1, 65535),
    MONITOR_ENABLED: flag,
    WEBHOOK_ALLOW_INSECURE: flag,
    WEBHOOK_RETRY_SCALE: z
      .string()
      .regex(/^\d+(\.\d+)?$/, { error: 'must be a positive number' })
      .transform(Number)
      .pipe(z.number().positive({ error: 'must be a positive number' })),
    WEBHOOK_SENDS_AT_ONCE: integer(1, 10_000),
    WEBHOOK_SENDS_PER_ENDPOINT: integer(1, 1_000),
    AUDIT_SIGNING_KEY: z
      .string()
      .refine(
        (key) => {
          try {
            parseSignerKey(key);
            return true;
          } catch {
            return false;
          }
        },
        { error: 'must be a C2SP Ed25519 signer key, PRIVATE+KEY+<name>+<key id>+<base64>' },
      )
      .optional(),
    AUDIT_CHECKPOINT_DIR: z.string().optional(),
    PERSONAL_DATA_KEYS: z
      .string()
      .transform((value) => value.split(',').map((entry) => entry.trim()))
      .refine(
        (entries) =>
          entries.every((entry) => /^[A-Za-z0-9._-]{1,40}:[A-Za-z0-9+/]{43}=$/.test(entry)) &&
          new Set(entries.map((entry) => entry.split(':')[0])).size === entries.length,
        { error: 'must be a comma-separated list of <id>:<base64 of 32 bytes>, each id once' },
      )
      .transform((entries) =>
        entries.map((entry) => {
          const [id, key] = entry.split(':') as [string, string];
          return { id, key: Buffer.from(key, 'base64') };
        }),
      )
      .optional(),
    OTEL_EXPORTER_OTLP_ENDPOINT: urlWithScheme(['http', 'https']).optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: urlWithScheme(['http', 'https']).optional(),
    OTEL_SDK_DISABLED: flag,
    OTEL_SERVICE_NAME: z.string(),
    OTEL_TRACES_SAMPLER: z.enum(
      [
        'always_on',
        'always_off',
        'traceidratio',
        'parentbased_always_on',
        'parentbased_always_off',
        'parentbased_traceidratio',
      ],
      {
        error:
          'must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio',
      },
    ),
    OTEL_TRACES_SAMPLER_ARG: z
      .string()
      .regex(/^\d+(\.\d+)?$/, { error: 'must be a number from 0 to 1' })
      .transform(Number)
      .pipe(z.number().max(1, { error: 'must be a number from 0 to 1' })),
    INDEX_SOURCE_DEFAULTS: z
      .string()
      .transform((value) => value.split(',').map((pair) => pair.trim().split('=')))
      .refine(
        (pairs) =>
          pairs.every(
            (pair) =>
              pair.length === 2 &&
              /^(rainfall_mm|ndvi|wind_speed_ms)$/.test(pair[0]!) &&
              z.uuid().safeParse(pair[1]).success,
          ) && new Set(pairs.map(([index]) => index)).size === pairs.length,
        { error: 'must be a comma-separated list of <index>=<source_id>, each index once' },
      )
      .transform((pairs) => Object.fromEntries(pairs))
      .optional(),
  } satisfies Record<VariableName, z.ZodType>)
  .superRefine((env, context) => {
    if (env.APP_ENV !== 'production') return;
    if (env.AUDIT_SIGNING_KEY === SANDBOX_AUDIT_SIGNING_KEY)
      context.addIssue({
        code: 'custom',
        path: ['AUDIT_SIGNING_KEY'],
        message: 'the public sandbox key is not allowed in production',
      });
    if (!env.PERSONAL_DATA_KEYS)
      context.addIssue({ code: 'custom', path: ['PERSONAL_DATA_KEYS'], message: 'must be set in production' });
    if (env.AUTH_JWKS_URL) {
      if (!env.AUTH_JWKS_URL.startsWith('https://'))
        context.addIssue({ code: 'custom', path: ['AUTH_JWKS_URL'], message: 'must be an https:// URL in production' });
      return;
    }
    if (!env.AUTH_JWT_SECRET || env.AUTH_JWT_SECRET.length < MIN_PRODUCTION_SECRET_LENGTH)
      context.addIssue({
        code: 'custom',
        path: ['AUTH_JWT_SECRET'],
        message: `in production set AUTH_JWKS_URL, or AUTH_JWT_SECRET to at least ${MIN_PRODUCTION_SECRET_LENGTH} characters`,
      });
    else if (env.AUTH_JWT_SECRET === SANDBOX_JWT_SECRET)
      context.addIssue({
        code: 'custom',
        path: ['AUTH_JWT_SECRET'],
        message: 'the public sandbox secret is not allowed in production',
      });
  });

const secretNames = new Set<string>(
  configVariables.filter((variable: ConfigVariable) => variable.secret).map((variable) => variable.name),
);

/** Reads and validates the configuration; throws a ConfigError naming every bad variable. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  // An empty value counts as unset, as `VAR=` in a compose file or shell usually means "not configured".
  const raw = Object.fromEntries(
    configVariables.map((variable: ConfigVariable) => [variable.name, env[variable.name] || variable.default]),
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const value = raw[name];
        const shown = value === undefined || secretNames.has(name) ? '' : ` (got ${JSON.stringify(value)})`;
        return `${name}: ${issue.message}${shown}`;
      }),
    );
  }
  const values = parsed.data;
  return {
    port: values.PORT,
    appEnv: values.APP_ENV,
    databaseUrl: values.DATABASE_URL,
    eventStoreUrl: values.EVENTSTORE_URL,
    kafkaBrokers: values.KAFKA_BROKERS ?? [],
    kafkaTopicPartitions: values.KAFKA_TOPIC_PARTITIONS,
    kafkaTopicPrefix: values.KAFKA_TOPIC_PREFIX ?? '',
    // A container's host name is its own and survives a restart of its process.
    kafkaGroupInstanceId: values.KAFKA_GROUP_INSTANCE_ID ?? hostname(),
    auth: {
      jwtSecret: values.AUTH_JWKS_URL ? undefined : (values.AUTH_JWT_SECRET ?? SANDBOX_JWT_SECRET),
      jwksUrl: values.AUTH_JWKS_URL,
      issuer: values.AUTH_ISSUER,
      audience: values.AUTH_AUDIENCE,
    },
    rateLimitPerMinute: values.RATE_LIMIT_PER_MINUTE,
    metricsToken: values.METRICS_TOKEN,
    readYourWritesTimeoutMs: values.READ_YOUR_WRITES_TIMEOUT_MS,
    databaseWaitMs: values.DATABASE_WAIT_MS,
    httpRequestTimeoutMs: values.HTTP_REQUEST_TIMEOUT_MS,
    httpWorkers: values.HTTP_WORKERS,
    logLevel: values.LOG_LEVEL,
    dataDir: values.DATA_DIR,
    indexFileJobBytes: values.INDEX_FILE_JOB_BYTES,
    indexFileDir: join(values.DATA_DIR, 'index-files'),
    historyBackfillWaitMs: values.HISTORY_BACKFILL_WAIT_MS,
    embeddedPostgresPort: values.EMBEDDED_POSTGRES_PORT,
    monitorEnabled: values.MONITOR_ENABLED,
    webhookAllowInsecure: values.WEBHOOK_ALLOW_INSECURE,
    webhookRetryScale: values.WEBHOOK_RETRY_SCALE,
    webhookSendsAtOnce: values.WEBHOOK_SENDS_AT_ONCE,
    webhookSendsPerEndpoint: values.WEBHOOK_SENDS_PER_ENDPOINT,
    indexSourceDefaults: values.INDEX_SOURCE_DEFAULTS ?? {},
    auditSigningKey:
      values.AUDIT_SIGNING_KEY ?? (values.APP_ENV === 'production' ? undefined : SANDBOX_AUDIT_SIGNING_KEY),
    auditCheckpointDir: values.AUDIT_CHECKPOINT_DIR,
    personalDataKeys: values.PERSONAL_DATA_KEYS ?? [
      {
        id: SANDBOX_PERSONAL_DATA_KEY.split(':')[0]!,
        key: Buffer.from(SANDBOX_PERSONAL_DATA_KEY.split(':')[1]!, 'base64'),
      },
    ],
    tracing: {
      enabled:
        !values.OTEL_SDK_DISABLED &&
        (values.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined),
      serviceName: values.OTEL_SERVICE_NAME,
      sampler: values.OTEL_TRACES_SAMPLER,
      samplerRatio: values.OTEL_TRACES_SAMPLER_ARG,
    },
  };
};
