import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

/**
 * Where a webhook may be sent (decision 080, against server-side request forgery): https to a public
 * address; link-local addresses (169.254.x.x, fe80::/10: the cloud's metadata service lives there),
 * unspecified, multicast and reserved ones never; private ones (loopback, 10/8, 172.16/12, 192.168/16,
 * 100.64/10, fc00::/7) only where WEBHOOK_ALLOW_PRIVATE says so, and then plain http to them too.
 */
export type AddressRule = { allowPrivate: boolean };

const v4 = (ip: string) => ip.split('.').map(Number) as [number, number, number, number];

/** 'public', 'private' (allowed by the setting), or 'never'. */
export function classifyAddress(ip: string): 'public' | 'private' | 'never' {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return classifyAddress(mapped[1]!);
  if (net.isIPv4(ip)) {
    const [a, b] = v4(ip);
    if (a === 169 && b === 254) return 'never';
    if (a === 0 || a >= 224) return 'never';
    if (a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
    return 'public';
  }
  if (net.isIPv6(ip)) {
    const low = ip.toLowerCase();
    if (low === '::' || /^fe[89ab]/.test(low) || low.startsWith('ff') || low.startsWith('fd00:ec2:')) return 'never';
    if (low === '::1' || /^f[cd]/.test(low)) return 'private';
    return 'public';
  }
  return 'never';
}

export function addressAllowed(ip: string, rule: AddressRule): boolean {
  const c = classifyAddress(ip);
  return c === 'public' || (c === 'private' && rule.allowPrivate);
}

const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why an address cannot be a webhook's ('webhooks.errors.…'), or null when it may. Checked on saving; the addresses it resolves to are checked on every sending. */
export function urlProblem(raw: string, rule: AddressRule): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'webhooks.errors.badUrl';
  }
  if (u.username || u.password) return 'webhooks.errors.badUrl';
  if (u.protocol === 'http:') return rule.allowPrivate && LOCAL_NAMES.has(u.hostname) ? null : 'webhooks.errors.httpsOnly';
  if (u.protocol !== 'https:') return 'webhooks.errors.httpsOnly';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !addressAllowed(host, rule)) return 'webhooks.errors.privateAddress';
  if (!rule.allowPrivate && LOCAL_NAMES.has(u.hostname)) return 'webhooks.errors.privateAddress';
  return null;
}

/**
 * A DNS lookup for the sending connection that refuses a name resolving to any address not allowed:
 * the address checked is the one connected to (a name that changes its answer between a check and
 * the connection gets nowhere).
 */
export function guardedLookup(rule: AddressRule): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => !addressAllowed(a.address, rule));
      if (bad || !addresses.length) return callback(Object.assign(new Error(`The address ${bad?.address ?? hostname} is not one webhooks may be sent to`), { code: 'EADDRNOTALLOWED' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
