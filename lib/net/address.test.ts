import { describe, expect, it } from 'vitest';
import { canonicalIp, judgeAddress } from './address';
import { checkUrl, UnsafeUrlError, type NetPolicy } from './safe-fetch';

const strict: NetPolicy = { allowPrivate: false, requireHttps: false };

describe('judgeAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['2002:7f00:1::', 'reserved'], // 6to4 wrapping 127.0.0.1
    ['64:ff9b::7f00:1', 'reserved'], // NAT64 wrapping 127.0.0.1
    ['2001:db8::1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
  ])('refuses %s (%s)', (address, kind) => {
    const v = judgeAddress(address);
    expect(v.allowed).toBe(false);
    if (!v.allowed) expect(v.reason).toContain(kind);
  });

  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public %s', (a) => {
    expect(judgeAddress(a)).toEqual({ allowed: true });
  });
});

describe('checkUrl normalises every IPv4/IPv6 spelling before judging it', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0x7F.0.0.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0177.0000.0000.0001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://127.0.1/', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '127.0.0.1'],
    ['http://[::ffff:7f00:1]/', '127.0.0.1'],
    ['http://[0:0:0:0:0:ffff:127.0.0.1]/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::]/', '::'],
    ['http://[::1]/', '::1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://0xa9fea9fe/', '169.254.169.254'],
    ['http://2852039166/', '169.254.169.254'],
    ['http://10.1/', '10.0.0.1'],
  ])('%s is %s and refused', (url, canonical) => {
    expect(canonicalIp(new URL(url).hostname)).toBe(canonical);
    expect(() => checkUrl(url, strict)).toThrow(UnsafeUrlError);
  });

  it('accepts public literals and names (names are judged after DNS, at connect time)', () => {
    expect(checkUrl('https://8.8.8.8/x', strict).hostname).toBe('8.8.8.8');
    expect(checkUrl('http://example.com/a.mp4', strict).hostname).toBe('example.com');
  });

  it('refuses other schemes, credentials, and plain http where HTTPS is required', () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://x/', 'data:text/plain,hi', 'not a url']) {
      expect(() => checkUrl(url, strict)).toThrow(UnsafeUrlError);
    }
    expect(() => checkUrl('https://user:pw@example.com/', strict)).toThrow(/credentials/);
    expect(() => checkUrl('http://example.com/', { ...strict, requireHttps: true })).toThrow(/HTTPS/);
  });

  it('KEYOUT_ALLOW_PRIVATE_URLS lifts the address rule (the policy carries it)', () => {
    const open: NetPolicy = { allowPrivate: true, requireHttps: false };
    expect(checkUrl('http://127.0.0.1:3000/hook', open).hostname).toBe('127.0.0.1');
    expect(() => checkUrl('file:///etc/passwd', open)).toThrow(UnsafeUrlError);
  });

  it('treats only the named test address as public', () => {
    const test: NetPolicy = { ...strict, treatAsPublic: ['127.0.0.2'] };
    expect(checkUrl('http://127.0.0.2:3201/', test).hostname).toBe('127.0.0.2');
    expect(() => checkUrl('http://127.0.0.1:3201/', test)).toThrow(UnsafeUrlError);
  });
});
