import { BlockList, isIP } from 'node:net';

// Addresses a webhook may not reach unless WEBHOOK_ALLOW_INSECURE is set: a subscriber could otherwise
// make the service call into its own network (SSRF). Checked on the URL when subscribing and again on
// the resolved address at connect time, since DNS may answer differently later (rebinding).

const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  forbidden.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  forbidden.addSubnet(network, prefix, 'ipv6');

// Teredo (2001::/32) hides its client's IPv4 address XOR-ed, and local-use NAT64 (64:ff9b:1::/48) at a
// prefix-dependent place: neither is a webhook receiver, so both are refused whole.
forbidden.addSubnet('2001::', 32, 'ipv6');
forbidden.addSubnet('64:ff9b:1::', 48, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 counts as two). */
const hextetsOf = (address: string): number[] => {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? `${address.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : address;
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  return [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
};

const ipv4Of = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 form carries and routes to: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 *  (::ffff:0:0:0/96), IPv4-compatible (::/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). Such an address
 *  reaches the embedded IPv4 one, so it is judged as that (`[::127.0.0.1]` is loopback). */
const embeddedIpv4 = (address: string): string | undefined => {
  const h = hextetsOf(address.toLowerCase());
  const zeros = (from: number, to: number) => h.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && (h[5] === 0xffff || h[5] === 0)) return ipv4Of(h[6]!, h[7]!);
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) return ipv4Of(h[6]!, h[7]!);
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return ipv4Of(h[6]!, h[7]!);
  if (h[0] === 0x2002) return ipv4Of(h[1]!, h[2]!);
  return undefined;
};

/** True for a public unicast IP address; false for private, loopback, link-local and the like, also when
 *  written inside an IPv6 form that routes to it. */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !forbidden.check(address, 'ipv4');
  if (forbidden.check(address, 'ipv6')) return false;
  const ipv4 = embeddedIpv4(address);
  return ipv4 === undefined || !forbidden.check(ipv4, 'ipv4');
};

/** Names that only ever resolve inside a network: the machine itself (RFC 6761), names of the
 *  local domain, of internal zones (`.internal`, ICANN 2024), mDNS and home networks (RFC 8375). */
const INTERNAL_SUFFIXES = ['localhost', 'localdomain', 'internal', 'local', 'home.arpa'];

/** A host name (not an address) that can only be internal: one of the suffixes above, or a single label
 *  (`vm`), which the resolver completes with its search domains. A trailing dot changes nothing. */
const isInternalName = (host: string): boolean => {
  const name = host.replace(/\.$/, '');
  return !name.includes('.') || INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
};

/** A URL host that names the machine itself, a name only an internal network resolves, or a literal
 *  non-public address. */
export const isPrivateHost = (hostname: string): boolean => {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return isIP(host) === 0 ? isInternalName(host) : !isPublicAddress(host);
};
