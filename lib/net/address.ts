import ipaddr from 'ipaddr.js';

/**
 * Which network addresses the server may connect to on a user's behalf. Only globally routable
 * unicast addresses pass: ipaddr.js classifies every special-purpose range (loopback, private,
 * link-local, CGNAT, multicast, unspecified, reserved, documentation, 6to4/Teredo/NAT64 forms
 * that embed an IPv4 address, …) as something other than "unicast".
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

const REASONS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  unspecified: 'an unspecified address',
};

/**
 * Parses an IP literal as it appears in a URL's hostname (brackets allowed). WHATWG URL parsing
 * has already turned decimal, hex, octal and short IPv4 forms into dotted quads; IPv4-mapped IPv6
 * (::ffff:127.0.0.1) is unwrapped so it is judged as the IPv4 address it reaches.
 * Returns null for a name that is not an IP literal.
 */
export function parseIpLiteral(host: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return null;
  return ipaddr.process(bare);
}

/** The verdict for one resolved or literal address. */
export function judgeAddress(address: string): AddressVerdict {
  const ip = parseIpLiteral(address);
  if (!ip) return { allowed: false, reason: 'an address that could not be parsed' };
  const canonical = ip.toString();
  if (METADATA_ADDRESSES.has(canonical)) return { allowed: false, reason: 'a cloud metadata address' };
  const range = ip.range();
  if (range === 'unicast') return { allowed: true };
  return { allowed: false, reason: REASONS[range] ?? `a reserved address (${range})` };
}

/** The canonical text of an IP literal host, e.g. "[::ffff:7f00:1]" → "127.0.0.1". */
export function canonicalIp(host: string): string | null {
  return parseIpLiteral(host)?.toString() ?? null;
}
