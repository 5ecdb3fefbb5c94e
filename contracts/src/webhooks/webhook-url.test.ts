import { describe, expect, it } from 'vitest';
import { webhookCreateRequest } from './subscription';
import { isPrivateHost, isPublicAddress } from './webhook-address';

const messageFor = (allowInsecure: boolean, url: string): string | undefined =>
  webhookCreateRequest(allowInsecure).safeParse({ url }).error?.issues[0]?.message;

describe('webhook URLs', () => {
  it('accepts https to a public host', () => {
    expect(messageFor(false, 'https://hooks.example.com/cropcover')).toBeUndefined();
    expect(messageFor(false, 'https://8.8.8.8/hook')).toBeUndefined();
  });

  it('refuses http, private, loopback and link-local hosts in production', () => {
    expect(messageFor(false, 'http://hooks.example.com/x')).toBe('must be an https URL');
    for (const url of [
      'https://localhost/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://172.16.0.9/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[fe80::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:10.0.0.1]/x',
    ])
      expect(messageFor(false, url), url).toBe('must not point to a private, loopback or link-local address');
  });

  it('allows http and local hosts with WEBHOOK_ALLOW_INSECURE', () => {
    expect(messageFor(true, 'http://127.0.0.1:8080/x')).toBeUndefined();
    expect(messageFor(true, 'http://localhost/x')).toBeUndefined();
    expect(messageFor(true, 'ftp://127.0.0.1/x')).toBe('must be an http or https URL');
  });

  it('refuses what is not an absolute URL, or carries credentials', () => {
    expect(messageFor(true, '/relative')).toBe('must be an absolute URL');
    expect(messageFor(false, 'https://user:secret@hooks.example.com/x')).toBe('must not carry credentials');
  });

  it('rejects unknown fields', () => {
    const result = webhookCreateRequest(false).safeParse({ url: 'https://hooks.example.com', secret: 'x' });
    expect(result.success).toBe(false);
  });

  it('classifies addresses', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1::1')).toBe(true);
    expect(isPublicAddress('100.64.0.1')).toBe(false);
    expect(isPublicAddress('not-an-ip')).toBe(false);
    expect(isPrivateHost('hooks.example.com')).toBe(false);
    expect(isPrivateHost('api.localhost')).toBe(true);
  });
});
