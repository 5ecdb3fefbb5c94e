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

/** IPv4 written inside IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it is. */
const mappedIpv4 = (address: string): string | undefined => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];

/** True for a public unicast IP address; false for private, loopback, link-local and the like. */
export const isPublicAddress = (address: string): boolean => {
  const ipv4 = mappedIpv4(address) ?? address;
  const family = isIP(ipv4);
  if (family === 0) return false;
  return !forbidden.check(ipv4, family === 4 ? 'ipv4' : 'ipv6');
};

/** A URL host that names the machine itself or a literal non-public address. */
export const isPrivateHost = (hostname: string): boolean => {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
};
