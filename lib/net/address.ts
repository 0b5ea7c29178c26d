import ipaddr from 'ipaddr.js';

/**
 * Which network addresses the server may connect to on a user's behalf.
 *
 * - IPv4: only what ipaddr.js calls "unicast" (every special-purpose range — loopback, private,
 *   link-local, CGNAT, multicast, broadcast, unspecified, reserved, documentation — is something
 *   else).
 * - IPv6: every form that carries an IPv4 address (mapped, the deprecated IPv4-compatible ::/96,
 *   SIIT, NAT64, 6to4, Teredo, ISATAP) is unwrapped and each IPv4 address in it must pass the IPv4
 *   rule; then the IPv6 address itself must be global unicast (2000::/3, no special range), or
 *   the well-known NAT64 prefix, through which IPv6-only hosts reach public IPv4 sites.
 * - Cloud metadata and host endpoints are refused always, even where private addresses are
 *   allowed (`isMetadataAddress`).
 */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OCI, DigitalOcean… instance metadata
  '169.254.169.253', // AWS VPC DNS resolver
  '169.254.170.2', // AWS ECS task metadata and credentials
  '169.254.170.23', // AWS EKS pod identity
  '100.100.100.200', // Alibaba Cloud metadata
  '168.63.129.16', // Azure host (WireServer)
  'fd00:ec2::254', // AWS metadata over IPv6
  'fd00:ec2::253', // AWS VPC DNS resolver over IPv6
  'fd00:ec2::23', // AWS EKS pod identity over IPv6
]);

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

const REASONS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  linkLocal: 'a link-local address',
  deprecatedSiteLocal: 'a deprecated site-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  unspecified: 'an unspecified address',
};

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Parses an IP literal as it appears in a URL's hostname (brackets allowed). WHATWG URL parsing
 * has already turned decimal, hex, octal and short IPv4 forms into dotted quads; IPv4-mapped IPv6
 * (::ffff:127.0.0.1) is unwrapped so it is judged as the IPv4 address it reaches.
 * Returns null for a name that is not an IP literal.
 */
export function parseIpLiteral(host: string): Ip | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipaddr.IPv6.isValid(bare)) {
    const ip = ipaddr.IPv6.parse(hexTail(bare));
    return ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip;
  }
  return ipaddr.IPv4.isValid(bare) ? ipaddr.IPv4.parse(bare) : null;
}

/**
 * "::127.0.0.1" → "::7f00:1". ipaddr.js reads any dotted IPv6 tail as IPv4-mapped, which would
 * turn the IPv4-compatible form into a mapped one (URL hosts and DNS answers are already hex).
 */
function hexTail(address: string): string {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!m) return address;
  const [a, b, c, d] = m.slice(2).map(Number) as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, by the form that carries them (mapped addresses
 * are already unwrapped by parseIpLiteral).
 */
function embeddedIPv4(ip: ipaddr.IPv6): { form: string; addresses: ipaddr.IPv4[] } | null {
  const g = ip.parts;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(6)) return { form: 'an IPv4-compatible IPv6 address', addresses: [v4(g[6]!, g[7]!)] };
  if (zeros(4) && g[4] === 0xffff && g[5] === 0)
    return { form: 'an IPv4-translated (SIIT) address', addresses: [v4(g[6]!, g[7]!)] };
  if (ip.match(ipaddr.IPv6.parse('64:ff9b::'), 96))
    return { form: 'a NAT64 address', addresses: [v4(g[6]!, g[7]!)] };
  if (g[0] === 0x2002) return { form: 'a 6to4 address', addresses: [v4(g[1]!, g[2]!)] };
  // Teredo: the server's address, then the client's with every bit inverted.
  if (g[0] === 0x2001 && g[1] === 0) {
    return {
      form: 'a Teredo address',
      addresses: [v4(g[2]!, g[3]!), v4(~g[6]! & 0xffff, ~g[7]! & 0xffff)],
    };
  }
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe)
    return { form: 'an ISATAP address', addresses: [v4(g[6]!, g[7]!)] };
  return null;
}

function judgeIPv4(ip: ipaddr.IPv4): AddressVerdict {
  if (METADATA_ADDRESSES.has(ip.toString()))
    return { allowed: false, reason: 'a cloud metadata address' };
  const range = ip.range();
  if (range === 'unicast') return { allowed: true };
  return { allowed: false, reason: REASONS[range] ?? `a reserved address (${range})` };
}

const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');

function judgeIPv6(ip: ipaddr.IPv6): AddressVerdict {
  if (METADATA_ADDRESSES.has(ip.toString()))
    return { allowed: false, reason: 'a cloud metadata address' };
  const range = ip.range();
  if (range === 'loopback' || range === 'unspecified')
    return { allowed: false, reason: REASONS[range]! };
  const embedded = embeddedIPv4(ip);
  for (const inner of embedded?.addresses ?? []) {
    const verdict = judgeIPv4(inner);
    if (!verdict.allowed)
      return {
        allowed: false,
        reason: `${embedded!.form} embedding ${inner.toString()} (${verdict.reason})`,
      };
  }
  if (range === 'rfc6052') {
    // The well-known /96 passed above; the local-use /48 maps into a network of its own.
    return embedded ? { allowed: true } : { allowed: false, reason: 'a local-use NAT64 address' };
  }
  if (range === 'rfc6145' || (embedded && !ip.match(GLOBAL_UNICAST, 3))) {
    return { allowed: false, reason: embedded?.form ?? 'an IPv4-translated (SIIT) address' };
  }
  if (range !== 'unicast' && range !== '6to4' && range !== 'teredo') {
    return { allowed: false, reason: REASONS[range] ?? `a reserved address (${range})` };
  }
  if (!ip.match(GLOBAL_UNICAST, 3))
    return { allowed: false, reason: 'an address outside the global unicast range (2000::/3)' };
  return { allowed: true };
}

/** The verdict for one resolved or literal address. */
export function judgeAddress(address: string): AddressVerdict {
  const ip = parseIpLiteral(address);
  if (!ip) return { allowed: false, reason: 'an address that could not be parsed' };
  return ip.kind() === 'ipv4' ? judgeIPv4(ip as ipaddr.IPv4) : judgeIPv6(ip as ipaddr.IPv6);
}

/**
 * True for cloud metadata and host endpoints, in any spelling that reaches them (mapped, NAT64,
 * 6to4…). These are refused even where private addresses are allowed: they hand out credentials.
 */
export function isMetadataAddress(address: string): boolean {
  const ip = parseIpLiteral(address);
  if (!ip) return false;
  if (METADATA_ADDRESSES.has(ip.toString())) return true;
  if (ip.kind() === 'ipv4') return false;
  return (embeddedIPv4(ip as ipaddr.IPv6)?.addresses ?? []).some((a) =>
    METADATA_ADDRESSES.has(a.toString()),
  );
}

/** The canonical text of an IP literal host, e.g. "[::ffff:7f00:1]" → "127.0.0.1". */
export function canonicalIp(host: string): string | null {
  return parseIpLiteral(host)?.toString() ?? null;
}
