import { isIPv4, isIPv6 } from 'node:net';

/**
 * What the per-address limits count for a client address: an IPv4 address as it is, an IPv6
 * address by its /64 network. One IPv6 host is usually given a whole /64, so counting single
 * IPv6 addresses would hand anyone 2^64 fresh addresses to spread guesses over.
 */
export function sourceAddress(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (!isIPv6(address)) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  const [head = '', tail] = address.split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const tailGroups = tail ? tail.split(':') : [];
    // A dotted IPv4 ending takes the room of two groups.
    const tailWidth = tailGroups.reduce((width, group) => width + (group.includes('.') ? 2 : 1), 0);
    groups.push(...Array(8 - groups.length - tailWidth).fill('0'));
  }
  const network = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${network.join(':')}::/64`;
}
