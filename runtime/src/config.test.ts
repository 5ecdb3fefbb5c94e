import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  configVariables,
  loadConfig,
  SANDBOX_AUDIT_SIGNING_KEY,
  SANDBOX_JWT_SECRET,
  SANDBOX_PERSONAL_DATA_KEY,
} from './config';

const configErrorOf = (env: NodeJS.ProcessEnv): ConfigError => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

const strongSecret = 'x'.repeat(32);
// Production refuses to start without its own key-encryption key of personal data.
const productionDataKey = `prod1:${Buffer.alloc(32, 7).toString('base64')}`;

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      appEnv: 'sandbox',
      databaseUrl: undefined,
      eventStoreUrl: undefined,
      kafkaBrokers: [],
      kafkaTopicPartitions: 3,
      kafkaTopicPrefix: '',
      kafkaGroupInstanceId: hostname(),
      auth: { jwtSecret: SANDBOX_JWT_SECRET, jwksUrl: undefined, issuer: undefined, audience: undefined },
      rateLimitPerMinute: 600,
      readYourWritesTimeoutMs: 5000,
      databaseWaitMs: 5000,
      httpRequestTimeoutMs: 30000,
      httpWorkers: 1,
      logLevel: 'info',
      dataDir: '.data',
      indexFileJobBytes: 67108864,
      indexFileDir: '.data/index-files',
      historyBackfillWaitMs: 10000,
      embeddedPostgresPort: 5433,
      monitorEnabled: true,
      webhookAllowInsecure: false,
      webhookRetryScale: 1,
      webhookSendsAtOnce: 256,
      webhookSendsPerEndpoint: 8,
      indexSourceDefaults: {},
      tracing: { enabled: false, serviceName: 'cropcover', sampler: 'parentbased_always_on', samplerRatio: 1 },
      auditSigningKey: SANDBOX_AUDIT_SIGNING_KEY,
      auditCheckpointDir: undefined,
      personalDataKeys: [{ id: 'sandbox1', key: Buffer.from(SANDBOX_PERSONAL_DATA_KEY.split(':')[1] ?? '', 'base64') }],
    });
  });

  describe('tracing', () => {
    it('is on once an OTLP endpoint is set, for traces or for every signal', () => {
      expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing.enabled).toBe(true);
      expect(
        loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }).tracing.enabled,
      ).toBe(true);
    });

    it('stays off when OTEL_SDK_DISABLED says so, endpoint or not', () => {
      expect(
        loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).tracing.enabled,
      ).toBe(false);
    });

    it('reads the service name and the sampler as the SDK would', () => {
      expect(
        loadConfig({
          OTEL_SERVICE_NAME: 'cropcover-staging',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.25',
        }).tracing,
      ).toEqual({
        enabled: false,
        serviceName: 'cropcover-staging',
        sampler: 'parentbased_traceidratio',
        samplerRatio: 0.25,
      });
    });

    it('refuses an unknown sampler and a ratio above 1', () => {
      expect(configErrorOf({ OTEL_TRACES_SAMPLER: 'sometimes' }).problems[0]).toMatch(/^OTEL_TRACES_SAMPLER: must be/);
      expect(configErrorOf({ OTEL_TRACES_SAMPLER_ARG: '2' }).problems[0]).toMatch(/^OTEL_TRACES_SAMPLER_ARG: must be/);
    });
  });

  it('reads every variable it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      APP_ENV: 'production',
      PERSONAL_DATA_KEYS: productionDataKey,
      DATABASE_URL: 'postgres://u:p@db:5432/cc',
      EVENTSTORE_URL: 'kurrentdb://kurrent:2113?tls=false',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      KAFKA_TOPIC_PARTITIONS: '6',
      KAFKA_TOPIC_PREFIX: 'staging.',
      KAFKA_GROUP_INSTANCE_ID: 'dispatcher-2',
      AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      AUTH_ISSUER: 'https://idp.example/',
      AUTH_AUDIENCE: 'cropcover',
      RATE_LIMIT_PER_MINUTE: '100',
      READ_YOUR_WRITES_TIMEOUT_MS: '250',
      DATABASE_WAIT_MS: '2500',
      HTTP_REQUEST_TIMEOUT_MS: '5000',
      LOG_LEVEL: 'warn',
      DATA_DIR: '/var/lib/cropcover',
      EMBEDDED_POSTGRES_PORT: '6543',
      MONITOR_ENABLED: 'false',
      WEBHOOK_ALLOW_INSECURE: 'true',
      WEBHOOK_RETRY_SCALE: '0.001',
      WEBHOOK_SENDS_AT_ONCE: '16',
      WEBHOOK_SENDS_PER_ENDPOINT: '2',
      INDEX_SOURCE_DEFAULTS:
        'rainfall_mm=01a20b0c-8e4a-70d5-b3e5-1ec6587e62b8, ndvi=01a20b0c-8e4a-70d5-b3e5-1ec6587e62b9',
    });
    expect(config).toMatchObject({
      port: 8080,
      appEnv: 'production',
      databaseUrl: 'postgres://u:p@db:5432/cc',
      eventStoreUrl: 'kurrentdb://kurrent:2113?tls=false',
      kafkaBrokers: ['k1:9092', 'k2:9092'],
      kafkaTopicPartitions: 6,
      kafkaTopicPrefix: 'staging.',
      kafkaGroupInstanceId: 'dispatcher-2',
      auth: {
        jwtSecret: undefined,
        jwksUrl: 'https://idp.example/.well-known/jwks.json',
        issuer: 'https://idp.example/',
        audience: 'cropcover',
      },
      rateLimitPerMinute: 100,
      readYourWritesTimeoutMs: 250,
      databaseWaitMs: 2500,
      httpRequestTimeoutMs: 5000,
      logLevel: 'warn',
      dataDir: '/var/lib/cropcover',
      embeddedPostgresPort: 6543,
      monitorEnabled: false,
      webhookAllowInsecure: true,
      webhookRetryScale: 0.001,
      webhookSendsAtOnce: 16,
      webhookSendsPerEndpoint: 2,
      indexSourceDefaults: {
        rainfall_mm: '01a20b0c-8e4a-70d5-b3e5-1ec6587e62b8',
        ndvi: '01a20b0c-8e4a-70d5-b3e5-1ec6587e62b9',
      },
    });
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it('refuses a postgres EVENTSTORE_URL: the PostgreSQL event store lives in DATABASE_URL', () => {
    expect(() => loadConfig({ EVENTSTORE_URL: 'postgresql://h/es' })).toThrow(/EVENTSTORE_URL/);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_ENV', 'staging'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['EVENTSTORE_URL', 'redis://localhost'],
    ['KAFKA_BROKERS', 'k1:9092,k2'],
    ['KAFKA_TOPIC_PREFIX', 'a/b'],
    ['KAFKA_GROUP_INSTANCE_ID', 'dispatcher 1'],
    ['AUTH_JWKS_URL', 'not a url'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['READ_YOUR_WRITES_TIMEOUT_MS', '-1'],
    ['LOG_LEVEL', 'verbose'],
    ['EMBEDDED_POSTGRES_PORT', '0'],
    ['MONITOR_ENABLED', 'yes'],
    ['WEBHOOK_ALLOW_INSECURE', '1'],
    ['WEBHOOK_RETRY_SCALE', '0'],
    ['WEBHOOK_SENDS_PER_ENDPOINT', '0'],
    ['INDEX_SOURCE_DEFAULTS', 'rainfall_mm'],
    ['INDEX_SOURCE_DEFAULTS', 'soil_moisture=01a20b0c-8e4a-70d5-b3e5-1ec6587e62b8'],
    ['INDEX_SOURCE_DEFAULTS', 'ndvi=not-a-uuid'],
    ['INDEX_SOURCE_DEFAULTS', 'ndvi=01a20b0c-8e4a-70d5-b3e5-1ec6587e62b8,ndvi=01a20b0c-8e4a-70d5-b3e5-1ec6587e62b9'],
  ])('names %s when it is %j', (name, value) => {
    const error = configErrorOf({ [name]: value });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(new RegExp(`^${name}: `));
    const secret = configVariables.some((variable) => variable.name === name && 'secret' in variable);
    if (secret) expect(error.message).not.toContain(value);
    else expect(error.message).toContain(JSON.stringify(value));
  });

  it('names every bad variable at once', () => {
    const error = configErrorOf({ PORT: 'x', LOG_LEVEL: 'loud', APP_ENV: 'dev' });
    expect(error.problems.map((problem) => problem.split(':')[0]).sort()).toEqual(['APP_ENV', 'LOG_LEVEL', 'PORT']);
    expect(error.message).toMatch(/^Invalid configuration:\n {2}- /);
  });

  it('never echoes a secret value', () => {
    const error = configErrorOf({ DATABASE_URL: 'mysql://user:hunter2@db/x' });
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).not.toContain('hunter2');
  });

  describe('the audit signing key', () => {
    it('defaults to the public sandbox key in the sandbox, and to none in production', () => {
      expect(loadConfig({}).auditSigningKey).toBe(SANDBOX_AUDIT_SIGNING_KEY);
      expect(loadConfig({ AUDIT_CHECKPOINT_DIR: '/d/sink' }).auditCheckpointDir).toBe('/d/sink');
      expect(
        loadConfig({ APP_ENV: 'production', PERSONAL_DATA_KEYS: productionDataKey, AUTH_JWT_SECRET: strongSecret })
          .auditSigningKey,
      ).toBeUndefined();
    });

    it('refuses what is not a signer key, never echoing it, and the sandbox key in production', () => {
      expect(configErrorOf({ AUDIT_SIGNING_KEY: 'PRIVATE+KEY+x+00000000+AAAA' }).problems).toEqual([
        'AUDIT_SIGNING_KEY: must be a C2SP Ed25519 signer key, PRIVATE+KEY+<name>+<key id>+<base64>',
      ]);
      expect(
        configErrorOf({
          APP_ENV: 'production',
          PERSONAL_DATA_KEYS: productionDataKey,
          AUTH_JWT_SECRET: strongSecret,
          AUDIT_SIGNING_KEY: SANDBOX_AUDIT_SIGNING_KEY,
        }).problems,
      ).toEqual(['AUDIT_SIGNING_KEY: the public sandbox key is not allowed in production']);
    });
  });

  describe('in production', () => {
    it('requires its own key-encryption key of personal data', () => {
      expect(configErrorOf({ APP_ENV: 'production', AUTH_JWT_SECRET: strongSecret }).problems).toEqual([
        'PERSONAL_DATA_KEYS: must be set in production',
      ]);
    });

    it('requires AUTH_JWKS_URL or a strong AUTH_JWT_SECRET', () => {
      expect(configErrorOf({ APP_ENV: 'production', PERSONAL_DATA_KEYS: productionDataKey }).problems).toEqual([
        expect.stringMatching(/^AUTH_JWT_SECRET: in production set AUTH_JWKS_URL, or AUTH_JWT_SECRET to at least 32/),
      ]);
      expect(
        configErrorOf({ APP_ENV: 'production', PERSONAL_DATA_KEYS: productionDataKey, AUTH_JWT_SECRET: 'short' })
          .problems[0],
      ).toMatch(/^AUTH_JWT_SECRET: /);
    });

    it('refuses the public sandbox secret', () => {
      expect(
        configErrorOf({
          APP_ENV: 'production',
          PERSONAL_DATA_KEYS: productionDataKey,
          AUTH_JWT_SECRET: SANDBOX_JWT_SECRET,
        }).problems[0],
      ).toMatch(/^AUTH_JWT_SECRET: the public sandbox secret/);
    });

    it('accepts a strong secret', () => {
      expect(
        loadConfig({ APP_ENV: 'production', PERSONAL_DATA_KEYS: productionDataKey, AUTH_JWT_SECRET: strongSecret }).auth
          .jwtSecret,
      ).toBe(strongSecret);
    });

    it('requires the JWKS URL to be https', () => {
      expect(
        configErrorOf({
          APP_ENV: 'production',
          PERSONAL_DATA_KEYS: productionDataKey,
          AUTH_JWKS_URL: 'http://idp/jwks',
        }).problems[0],
      ).toMatch(/^AUTH_JWKS_URL: must be an https/);
    });
  });

  it('documents every variable once, with a description', () => {
    const names = configVariables.map((variable) => variable.name);
    expect(new Set(names).size).toBe(names.length);
    for (const variable of configVariables) expect(variable.description.length).toBeGreaterThan(10);
  });
});
