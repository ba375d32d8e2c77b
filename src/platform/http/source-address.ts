import { isIPv6 } from 'node:net';

/**
 * The address a per-source limit counts: an IPv4 address as it is (also when written as an
 * IPv4-mapped IPv6 address), an IPv6 address by its /64 network. One IPv6 subscriber is handed
 * a whole /64 and can pick a fresh address in it for every request; counting the single
 * address would let it escape any per-address limit.
 */
export function sourceOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, lower-case, without leading zeros; a zone (%eth0) dropped. */
function expandIPv6(address: string): string[] {
  const [plain = ''] = address.toLowerCase().split('%');
  const [head = '', tail] = plain.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (::1.2.3.4) is two groups; only the first four groups matter here.
  const fill = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => '0');
  return [...left, ...(tail === undefined ? [] : fill), ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}
