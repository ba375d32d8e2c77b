import { BlockList, isIP } from 'node:net';

/**
 * Where an outbound call may not go: the ranges that reach this host, its network or its cloud's
 * services rather than the public internet (a client-supplied URL aimed at them would turn our
 * server into the client's way in: SSRF). Loopback, private, shared (CGNAT), link-local (with the
 * cloud metadata address 169.254.169.254), unspecified, multicast and reserved space, in IPv4 and
 * IPv6; an IPv4-mapped or NAT64 IPv6 address is judged by the IPv4 address it carries.
 */
const DENIED_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;

const DENIED_V6 = [
  // The unspecified address, loopback and the deprecated IPv4-compatible form.
  ['::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

/** Decides whether an outbound call may connect to an address; `allowed` (OUTBOUND_ALLOW_CIDRS) wins over the denied ranges. */
export interface AddressRules {
  permits(address: string): boolean;
}

export function createAddressRules(allowedCidrs: readonly string[]): AddressRules {
  const denied = new BlockList();
  for (const [network, prefix] of DENIED_V4) denied.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of DENIED_V6) denied.addSubnet(network, prefix, 'ipv6');
  const allowed = new BlockList();
  for (const entry of allowedCidrs) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    allowed.addSubnet(address, prefix === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefix), family);
  }
  const matches = (list: BlockList, address: string) => {
    const v4 = embeddedV4(address);
    if (v4 !== undefined) return list.check(v4, 'ipv4');
    return list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  };
  return {
    permits(address) {
      const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
      if (isIP(bare) === 0) return false;
      return matches(allowed, bare) || !matches(denied, bare);
    },
  };
}

/**
 * The IPv4 address an IPv6 one carries: IPv4-mapped (::ffff:a.b.c.d, also written in hex) or
 * NAT64 (64:ff9b::/96), either of which the network delivers to that IPv4 address.
 */
function embeddedV4(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined;
  const groups = expand(address);
  if (groups === undefined) return undefined;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mapped && !nat64) return undefined;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part counts as two). */
function expand(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<number>(Math.max(0, fill)).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}
