import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { validationError } from '../errors.js';

/**
 * Where an outbound call may not go: the ranges that reach this host, its network or its cloud's
 * services rather than the public internet (a client-supplied URL aimed at them would turn our
 * server into the client's way in: SSRF). Loopback, private, shared (CGNAT), link-local (with the
 * cloud metadata address 169.254.169.254), unspecified, multicast and reserved space, in IPv4 and
 * IPv6; an IPv6 address that carries an IPv4 one the network delivers to (IPv4-mapped or
 * -translated, NAT64, 6to4, Teredo) is judged by every IPv4 address it carries.
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
  // NAT64's local-use prefix: a site's own translator, embedding the IPv4 address where its prefix length says.
  ['64:ff9b:1::', 48],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

/** Decides whether an outbound call may connect to an address; `allowed` (OUTBOUND_ALLOW_CIDRS) wins over the denied ranges. */
export interface AddressRules {
  permits(address: string): boolean;
  /** Whether OUTBOUND_ALLOW_CIDRS names the address: an operator vouched for it, beyond its not being internal. */
  listed(address: string): boolean;
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
  const permitted = (address: string, family: 'ipv4' | 'ipv6') => allowed.check(address, family) || !denied.check(address, family);
  return {
    permits(address) {
      const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
      if (isIP(bare) === 0) return false;
      const carried = embeddedV4(bare);
      if (carried.length > 0) return carried.every((v4) => permitted(v4, 'ipv4'));
      return permitted(bare, isIP(bare) === 4 ? 'ipv4' : 'ipv6');
    },
    listed(address) {
      const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
      const family = isIP(bare);
      return family !== 0 && allowed.check(bare, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * Refuses at once, as a 422 naming `url`, what every call would refuse: a literal address, or a
 * name that resolves, to a range outbound calls may not reach. A name that does not resolve yet is
 * accepted; each call resolves and checks it again, so a later change of its DNS is caught there.
 */
export async function rejectInwardAddress(url: URL, rules: AddressRules): Promise<void> {
  if ((await addressesOf(url.hostname)).some((address) => !rules.permits(address))) {
    throw validationError('url', 'address', 'url resolves to a loopback, private, link-local or metadata address, which outbound calls may not reach');
  }
}

/** Whether the URL's host is, or resolves only to, addresses OUTBOUND_ALLOW_CIDRS names. */
export async function isListedHost(url: URL, rules: AddressRules): Promise<boolean> {
  const addresses = await addressesOf(url.hostname);
  return addresses.length > 0 && addresses.every((address) => rules.listed(address));
}

/** A literal address as it is, or every address a name resolves to (none when it does not resolve). */
async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIP(host) !== 0 ? [host] : lookup(host, { all: true }).then((found) => found.map((a) => a.address), () => []);
}

/**
 * Whether a host is this machine: a loopback address, an address of one of its network interfaces,
 * or a name whose every address is one. What a request's Host header names is whatever its sender
 * wrote; an origin taken from it leads here only when this says so.
 */
export async function isThisMachine(host: string): Promise<boolean> {
  const addresses = await addressesOf(host);
  const ours = new Set(Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address)));
  return addresses.length > 0 && addresses.every((address) => ours.has(address) || LOOPBACK.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6'));
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * The IPv4 addresses an IPv6 one carries, which the network delivers to: IPv4-mapped
 * (::ffff:a.b.c.d, also written in hex), IPv4-translated (::ffff:0:a.b.c.d), NAT64's well-known
 * prefix (64:ff9b::/96), 6to4 (2002:AABB:CCDD::/48) and Teredo (2001:0::/32: its server's address,
 * and its client's stored inverted). None for any other address.
 */
function embeddedV4(address: string): string[] {
  if (isIP(address) !== 6) return [];
  const groups = expand(address);
  if (groups === undefined) return [];
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const v4 = (high = 0, low = 0) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  if (zero(0, 5) && g5 === 0xffff) return [v4(g6, g7)];
  if (zero(0, 4) && g4 === 0xffff && g5 === 0) return [v4(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) return [v4(g6, g7)];
  if (g0 === 0x2002) return [v4(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [v4(g2, g3), v4(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
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
