import { describe, expect, it } from 'vitest';
import { createLogger, maskUrlPasswords } from './logger';

const capture = () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(line) } });
  return { logger, output: () => lines.join('') };
};

describe('createLogger', () => {
  it('writes JSON lines with a level label and an ISO time', () => {
    const { logger, output } = capture();
    logger.info({ farm_id: 'f1' }, 'hello');
    expect(JSON.parse(output())).toMatchObject({
      level: 'info',
      msg: 'hello',
      farm_id: 'f1',
      time: expect.any(String),
    });
  });

  it('censors authorization headers, tokens and secrets', () => {
    const { logger, output } = capture();
    logger.info({
      req: { headers: { authorization: 'Bearer eyJsecret.token.value', cookie: 'sid=abc123' } },
      webhook: { raw_secret: 'whsec_c2VjcmV0c2VjcmV0', secret: 'hmac-key-1' },
      token: 'eyJtop.level.token',
      config: { auth: { jwtSecret: 'jwt-secret-value' } },
    });
    const text = output();
    for (const secret of ['eyJsecret', 'abc123', 'whsec_', 'hmac-key-1', 'eyJtop', 'jwt-secret-value'])
      expect(text).not.toContain(secret);
    expect(JSON.parse(text).req.headers.authorization).toBe('[redacted]');
  });

  it('masks passwords in URLs, in fields and in messages', () => {
    const { logger, output } = capture();
    logger.info({ databaseUrl: 'postgres://app:s3cr3t@db:5432/cc' }, 'connecting to postgres://app:s3cr3t@db/cc');
    const line = JSON.parse(output());
    expect(line.databaseUrl).toBe('postgres://app:***@db:5432/cc');
    expect(line.msg).toBe('connecting to postgres://app:***@db/cc');
    expect(JSON.stringify(line)).not.toContain('s3cr3t');
  });

  it('masks passwords in logged errors', () => {
    const { logger, output } = capture();
    logger.error({ err: new Error('connect ECONNREFUSED postgres://app:s3cr3t@db/cc') }, 'failed');
    expect(JSON.parse(output()).err.message).toBe('connect ECONNREFUSED postgres://app:***@db/cc');
    expect(output()).not.toContain('s3cr3t');
  });
});

describe('maskUrlPasswords', () => {
  it('leaves URLs without credentials alone', () => {
    expect(maskUrlPasswords('https://example.com/a?b=c and kurrentdb://h:2113')).toBe(
      'https://example.com/a?b=c and kurrentdb://h:2113',
    );
  });
});
