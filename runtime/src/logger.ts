import { type DestinationStream, type Logger, type LoggerOptions as PinoOptions, pino } from 'pino';
import type { LogLevel } from './config';

export type { Logger } from 'pino';

// Secrets must never reach a log line: headers and fields that carry credentials are censored by
// name at any of the first three levels of a log object, and passwords inside URLs are masked
// wherever a string value or message contains one.
const sensitiveKeys = [
  'authorization',
  'cookie',
  'token',
  'access_token',
  'refresh_token',
  'secret',
  'raw_secret',
  'jwtSecret',
  'password',
];
// Farmers' personal data (SPEC §6) must not outlive an erasure in a log line either.
const personalKeys = ['first_name', 'last_name', 'phone_number', 'whatsapp_number'];
const redactPaths = [...sensitiveKeys, ...personalKeys].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

const urlCredentials = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*):[^\s/?#@]*@/gi;

/** Replaces the password of every `scheme://user:password@` in the text. */
export const maskUrlPasswords = (text: string): string => text.replace(urlCredentials, '$1:***@');

const maskDeep = (value: unknown, depth: number): unknown => {
  if (typeof value === 'string') return maskUrlPasswords(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskDeep(item, depth + 1)]));
};

export interface LoggerOptions {
  readonly level: LogLevel;
  readonly name?: string;
  /** Where lines go; stdout when omitted. Tests pass a stream to read what was logged. */
  readonly destination?: DestinationStream;
}

export const createLogger = ({ level, name, destination }: LoggerOptions): Logger => {
  const options: PinoOptions = {
    level,
    name,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactPaths, censor: '[redacted]' },
    // Errors are serialized after `formatters.log` runs, so their text is masked here.
    serializers: {
      err: (error: Error) => {
        const serialized = pino.stdSerializers.err(error);
        return {
          ...serialized,
          message: maskUrlPasswords(serialized.message),
          ...(serialized.stack ? { stack: maskUrlPasswords(serialized.stack) } : {}),
        };
      },
    },
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => maskDeep(object, 0) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? maskUrlPasswords(arg) : arg)) as Parameters<typeof method>,
        );
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
};
