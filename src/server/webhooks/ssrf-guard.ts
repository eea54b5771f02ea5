import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { parseNetwork } from '../config/networks';

/** Addresses a webhook may never reach in production: this host, the private networks and the rest. */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4 written in IPv6 (translated, 6to4) would reach the IPv4 networks above.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

const ipv4Mapped = new BlockList();
ipv4Mapped.addSubnet('::ffff:0:0', 96, 'ipv6');

/** Whether an address is on the public internet (not private, loopback, link-local, ...). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // Node's BlockList matches an IPv4-mapped IPv6 rule against every IPv4 address, so mapped
  // addresses are told apart here: refused outright, as a public IPv4 receiver is named as such.
  if (family === 6 && ipv4Mapped.check(address, 'ipv6')) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class UnsafeWebhookAddressError extends Error {
  override name = 'UnsafeWebhookAddressError';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/**
 * Networks a production server's webhooks may reach although they are not public (a campus
 * network's integration server). Each family is kept in its own list because Node's BlockList
 * matches IPv6 rules against IPv4 addresses through their mapped form: `::/0` must not open
 * every IPv4 network.
 */
export class PrivateNetworks {
  readonly #v4 = new BlockList();
  readonly #v6 = new BlockList();
  readonly size: number;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const parsed = parseNetwork(entry);
      if (!parsed) throw new Error(`Not a network in CIDR form: ${entry}`);
      if (parsed.family === 4) this.#v4.addSubnet(parsed.network, parsed.prefix, 'ipv4');
      else this.#v6.addSubnet(parsed.network, parsed.prefix, 'ipv6');
    }
    this.size = entries.length;
  }

  has(address: string): boolean {
    const family = isIP(address);
    if (family === 4) return this.#v4.check(address, 'ipv4');
    // IPv4-mapped addresses stay refused, as isPublicAddress refuses them.
    if (family === 6 && !ipv4Mapped.check(address, 'ipv6')) return this.#v6.check(address, 'ipv6');
    return false;
  }
}

export interface HostRules {
  /** Networks reachable in production although not public. */
  privateNetworks?: PrivateNetworks;
  /** The URL is plain http: in production every address must then be in `privateNetworks`. */
  plainHttp?: boolean;
}

/**
 * The address to connect to for a webhook's host. With `publicOnly` (production) every address
 * the name resolves to must be public or in the allowed private networks, and with plain http
 * in those networks: one answer outside refuses the lot, so a name cannot sometimes point
 * elsewhere. The caller connects to the address returned, never resolving again.
 */
export async function resolveWebhookHost(
  hostname: string,
  publicOnly: boolean,
  resolve: Resolver = systemResolver,
  rules: HostRules = {},
): Promise<ResolvedAddress> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new UnsafeWebhookAddressError(`The host ${host} cannot be resolved (${code}).`);
    }
  }
  const [first] = addresses;
  if (!first) throw new UnsafeWebhookAddressError(`The host ${host} has no address.`);
  if (publicOnly) {
    const allowed = rules.privateNetworks;
    for (const { address } of addresses) {
      if (allowed?.has(address)) continue;
      // Plain http crosses the internet readable by anyone on the way: only a network the
      // institution named as its own may be reached without TLS.
      if (rules.plainHttp)
        throw new UnsafeWebhookAddressError(
          `The host ${host} resolves to ${address}, which is not in WEBHOOK_PRIVATE_NETWORKS: use https://.`,
        );
      if (!isPublicAddress(address))
        throw new UnsafeWebhookAddressError(
          `The host ${host} resolves to ${address}, which is not a public address.`,
        );
    }
  }
  return first;
}
