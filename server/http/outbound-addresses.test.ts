// The outbound guard's address classification: special-purpose addresses in every IPv4 and IPv6 spelling that embeds
// one, and ordinary public ones.
import { describe, expect, it } from 'vitest';
import { addressRange, isPublicAddress } from './outbound';

describe('address classification', () => {
  it('calls special-purpose addresses not public, in IPv4 and every IPv6 form that embeds one', () => {
    const special = [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '239.255.255.250',
      '0.0.0.0',
      '0.1.2.3',
      '127.0.0.1',
      '127.255.0.9',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.2.1',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      'fec0::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::127.0.0.1',
      '::a00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2002:a00:1::1',
      '2002:c0a8:101::1',
      '2001::1',
      '2001:db8::1',
      'not an address',
    ];
    for (const address of special)
      expect({ address, range: addressRange(address) }).not.toEqual({ address, range: 'unicast' });
    expect(addressRange('::ffff:127.0.0.1')).toBe('IPv4-mapped loopback');
    expect(addressRange('2002:7f00:1::')).toBe('6to4 loopback');
    expect(addressRange('64:ff9b::a9fe:a9fe')).toBe('NAT64 linkLocal');
  });

  it('calls ordinary public addresses public, embedded ones included (DNS64 networks hand out 64:ff9b::/96)', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
    }
  });
});
