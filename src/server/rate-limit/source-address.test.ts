import { describe, expect, it } from 'vitest';
import { sourceAddress } from './source-address';

describe('the source address the limits count', () => {
  it('is an IPv4 address itself, also when written as IPv4-mapped IPv6', () => {
    expect(sourceAddress('198.51.100.7')).toBe('198.51.100.7');
    expect(sourceAddress('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(sourceAddress('::FFFF:198.51.100.7')).toBe('198.51.100.7');
  });

  it('is the /64 network of an IPv6 address, however it is written', () => {
    const network = '2001:db8:0:12::/64';
    expect(sourceAddress('2001:db8:0:12::1')).toBe(network);
    expect(sourceAddress('2001:0db8:0000:0012:abcd:ef01:2345:6789')).toBe(network);
    expect(sourceAddress('2001:DB8:0:12:ffff::')).toBe(network);
    expect(sourceAddress('2001:db8:0:12::1%eth0')).toBe(network);
    expect(sourceAddress('2001:db8::12:0:0:1')).toBe('2001:db8:0:0::/64');
    expect(sourceAddress('::1')).toBe('0:0:0:0::/64');
    expect(sourceAddress('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('passes anything else through', () => {
    expect(sourceAddress('unknown')).toBe('unknown');
  });
});
