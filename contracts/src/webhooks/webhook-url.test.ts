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

  it('refuses http in production; private, loopback and link-local hosts are private hosts', () => {
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
      // IPv6 forms that carry and route to a loopback or private IPv4 address.
      'https://[::127.0.0.1]/x',
      'https://[64:ff9b::7f00:1]/x',
      'https://[2002:7f00:1::]/x',
      'https://[::ffff:0:7f00:1]/x',
      'https://[2002:a00:1::1]/x',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x',
    ])
      expect(isPrivateHost(new URL(url).hostname), url).toBe(true);
  });

  it('takes names only an internal network resolves for private hosts, with or without a trailing dot', () => {
    for (const host of [
      'localhost.',
      'vm',
      'vm.',
      'db.localdomain',
      'localdomain',
      'metadata.google.internal',
      'printer.local',
      'nas.home.arpa',
      'API.LOCALHOST',
    ])
      expect(isPrivateHost(host), host).toBe(true);
    for (const host of ['hooks.example.com', 'hooks.example.com.', 'internal.example.com', 'local.example.org'])
      expect(isPrivateHost(host), host).toBe(false);
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

  it('refuses what a URL parser would silently rewrite, and port 0', () => {
    for (const url of [
      'https://hooks.example.com/a b',
      ' https://hooks.example.com/x',
      'https://hooks.example.com/x\r\nX-Injected: 1',
      'https://hooks.example.com\\@evil.example/x',
      'https://hooks.\texample.com/x',
    ])
      expect(messageFor(false, url), JSON.stringify(url)).toBe(
        'must not contain spaces, control characters or backslashes',
      );
    expect(messageFor(false, 'https://hooks.example.com:0/x')).toBe('must not use port 0');
  });

  it('stores the URL as the parser writes it: the one the dispatcher calls', () => {
    expect(webhookCreateRequest(false).parse({ url: 'HTTPS://Hooks.Example.COM:443/a/../b?x=1#frag' }).url).toBe(
      'https://hooks.example.com/b?x=1#frag',
    );
  });

  it('judges IPv6 forms by the IPv4 address they carry', () => {
    expect(isPublicAddress('64:ff9b::808:808')).toBe(true);
    expect(isPublicAddress('2002:808:808::1')).toBe(true);
    expect(isPublicAddress('::7f00:1')).toBe(false);
    expect(isPublicAddress('::ffff:0:a00:1')).toBe(false);
    expect(isPublicAddress('64:ff9b:1::a00:1')).toBe(false);
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
