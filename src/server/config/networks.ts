import { isIP } from 'node:net';

/**
 * An address or a network in CIDR form (`10.20.0.0/16`, `fd00:1::/64`; a bare address is that one
 * host), or null when the entry is neither: TRUST_PROXY's and WEBHOOK_PRIVATE_NETWORKS' entries.
 */
export function parseNetwork(
  entry: string,
): { network: string; prefix: number; family: 4 | 6 } | null {
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return null;
  const family = version === 6 ? 6 : 4;
  const bits = family === 4 ? 32 : 128;
  // A bare address names that one host.
  if (prefixText === undefined) return { network: address, prefix: bits, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return null;
  return { network: address, prefix: Number(prefixText), family };
}
