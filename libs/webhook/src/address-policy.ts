import { BlockList, isIP } from 'node:net';
import { GuardedNetwork } from './webhook.config';

/**
 * Which addresses a webhook may be delivered to. Loopback, private (RFC 1918, unique-local IPv6,
 * shared CGNAT space) and link-local ranges (169.254.0.0/16 holds the cloud metadata endpoint
 * 169.254.169.254; fe80::/10) are refused unless the deployment allows that kind by name, and
 * "this network", multicast and reserved ranges are refused always. IPv4-mapped IPv6 addresses
 * are judged as the IPv4 address they carry.
 */
export class AddressPolicy {
  private readonly refused = new BlockList();
  private readonly always = new BlockList();

  constructor(allowed: readonly GuardedNetwork[]) {
    const allow = new Set(allowed);
    if (!allow.has('loopback')) {
      this.refused.addSubnet('127.0.0.0', 8, 'ipv4');
      this.refused.addAddress('::1', 'ipv6');
    }
    if (!allow.has('private')) {
      this.refused.addSubnet('10.0.0.0', 8, 'ipv4');
      this.refused.addSubnet('172.16.0.0', 12, 'ipv4');
      this.refused.addSubnet('192.168.0.0', 16, 'ipv4');
      this.refused.addSubnet('100.64.0.0', 10, 'ipv4');
      this.refused.addSubnet('fc00::', 7, 'ipv6');
    }
    if (!allow.has('link-local')) {
      this.refused.addSubnet('169.254.0.0', 16, 'ipv4');
      this.refused.addSubnet('fe80::', 10, 'ipv6');
      // AWS's IPv6 metadata endpoint sits in unique-local space.
      this.refused.addAddress('fd00:ec2::254', 'ipv6');
    }
    this.always.addSubnet('0.0.0.0', 8, 'ipv4');
    this.always.addSubnet('224.0.0.0', 3, 'ipv4');
    this.always.addAddress('::', 'ipv6');
    this.always.addSubnet('ff00::', 8, 'ipv6');
  }

  /** Why `address` may not be reached, or null when it may. */
  refusal(address: string): string | null {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const ip = mapped ? mapped[1] : address;
    const family = isIP(ip);
    if (family === 0) return `${address} is not an IP address`;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (this.always.check(ip, type)) return `${address} is not a unicast address`;
    if (this.refused.check(ip, type))
      return `${address} is a loopback, private or link-local address`;
    return null;
  }
}
