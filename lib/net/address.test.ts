import { describe, expect, it } from 'vitest';
import { canonicalIp, judgeAddress } from './address';
import { checkUrl, UnsafeUrlError, type NetPolicy } from './safe-fetch';

const strict: NetPolicy = { allowPrivate: false, requireHttps: false };
const open: NetPolicy = { allowPrivate: true, requireHttps: false };

/** Addresses that must never be reached, with a word the refusal names. */
const REFUSED: [string, string][] = [
  // IPv4 special ranges
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.1.1', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  // cloud metadata and host endpoints
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['169.254.169.253', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['168.63.129.16', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  // native IPv6 special ranges
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fd12:3456::1', 'private'],
  ['fc00::1', 'private'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['100::1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2001:2::1', 'reserved'],
  ['2001:10::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['5f00::1', 'reserved'],
  ['4000::1', 'outside the global unicast range'],
  ['::ffff:ffff:7f00:1', 'outside the global unicast range'],
  ['1::1', 'outside the global unicast range'],
  // IPv4-mapped ::ffff:0:0/96
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  // IPv4-compatible ::/96 (deprecated)
  ['::127.0.0.1', '127.0.0.1'],
  ['::7f00:1', '127.0.0.1'],
  ['::a9fe:a9fe', '169.254.169.254'],
  ['::10.0.0.1', '10.0.0.1'],
  ['::8.8.8.8', 'IPv4-compatible'],
  // SIIT ::ffff:0:0:0/96
  ['::ffff:0:127.0.0.1', '127.0.0.1'],
  ['::ffff:0:808:808', 'IPv4-translated'],
  // NAT64 64:ff9b::/96 and the local-use prefix 64:ff9b:1::/48
  ['64:ff9b::7f00:1', '127.0.0.1'],
  ['64:ff9b::127.0.0.1', '127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
  ['64:ff9b::c0a8:101', '192.168.1.1'],
  ['64:ff9b:1::808:808', 'NAT64'],
  // 6to4 2002::/16: the IPv4 address is bits 16-47
  ['2002:7f00:1::', '127.0.0.1'],
  ['2002:7f00:1::1', '127.0.0.1'],
  ['2002:a9fe:a9fe::1', '169.254.169.254'],
  ['2002:c0a8:101::1', '192.168.1.1'],
  // Teredo 2001::/32: server IPv4 in bits 32-63, client IPv4 inverted in the last 32 bits
  ['2001:0:7f00:1::', '127.0.0.1'],
  ['2001:0:808:808:0:0:80ff:fffe', '127.0.0.1'],
  ['2001:0:808:808:8000:f227:5601:5656', '169.254.169.169'],
  // ISATAP interface identifiers (::0:5efe:a.b.c.d and ::200:5efe:a.b.c.d) under any prefix
  ['2606:4700::5efe:7f00:1', '127.0.0.1'],
  ['2606:4700::200:5efe:a00:1', '10.0.0.1'],
];

const ALLOWED = [
  '93.184.215.14',
  '8.8.8.8',
  '1.1.1.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:81a::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808', // NAT64 of a public address: how IPv6-only hosts reach IPv4 sites
  '2002:808:808::1', // 6to4 of a public address
  '2001:0:808:808:0:0:f7f7:f7f7', // Teredo: server and client both public (8.8.8.8)
];

describe('judgeAddress', () => {
  it(`has a table of at least 60 forms`, () => {
    expect(REFUSED.length + ALLOWED.length).toBeGreaterThanOrEqual(60);
  });

  it.each(REFUSED)('refuses %s (%s)', (address, word) => {
    const v = judgeAddress(address);
    expect(v.allowed).toBe(false);
    if (!v.allowed) expect(v.reason).toContain(word);
  });

  it.each(ALLOWED)('allows public %s', (a) => {
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
    // The forms the hardening review got through: the URL parser writes them as IPv6.
    ['http://[::127.0.0.1]/', '::7f00:1'],
    ['http://[::a9fe:a9fe]/', '::a9fe:a9fe'],
    ['http://[::ffff:ffff:7f00:1]/', '::ffff:ffff:7f00:1'],
    ['http://[64:ff9b::127.0.0.1]/', '64:ff9b::7f00:1'],
  ])('%s is %s and refused', (url, canonical) => {
    expect(canonicalIp(new URL(url).hostname)).toBe(canonical);
    expect(() => checkUrl(url, strict)).toThrow(UnsafeUrlError);
  });

  it('accepts public literals and names (names are judged after DNS, at connect time)', () => {
    expect(checkUrl('https://8.8.8.8/x', strict).hostname).toBe('8.8.8.8');
    expect(checkUrl('http://example.com/a.mp4', strict).hostname).toBe('example.com');
  });

  it('refuses other schemes, credentials, and plain http where HTTPS is required', () => {
    for (const url of [
      'ftp://example.com/',
      'file:///etc/passwd',
      'gopher://x/',
      'data:text/plain,hi',
      'not a url',
    ]) {
      expect(() => checkUrl(url, strict)).toThrow(UnsafeUrlError);
    }
    expect(() => checkUrl('https://user:pw@example.com/', strict)).toThrow(/credentials/);
    expect(() => checkUrl('http://example.com/', { ...strict, requireHttps: true })).toThrow(
      /HTTPS/,
    );
  });

  it('KEYOUT_ALLOW_PRIVATE_URLS lifts the address rule (the policy carries it)', () => {
    expect(checkUrl('http://127.0.0.1:3000/hook', open).hostname).toBe('127.0.0.1');
    expect(checkUrl('http://[::7f00:1]:3000/hook', open).hostname).toBe('[::7f00:1]');
    expect(() => checkUrl('file:///etc/passwd', open)).toThrow(UnsafeUrlError);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::a9fe:a9fe]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://2852039166/',
    'http://100.100.100.200/latest/meta-data/',
    'http://168.63.129.16/machine',
  ])('refuses the cloud metadata address in %s even with KEYOUT_ALLOW_PRIVATE_URLS', (url) => {
    expect(() => checkUrl(url, open)).toThrow(/cloud metadata/);
  });

  it('treats only the named test address as public', () => {
    const test: NetPolicy = { ...strict, treatAsPublic: ['127.0.0.2'] };
    expect(checkUrl('http://127.0.0.2:3201/', test).hostname).toBe('127.0.0.2');
    expect(() => checkUrl('http://127.0.0.1:3201/', test)).toThrow(UnsafeUrlError);
  });
});
