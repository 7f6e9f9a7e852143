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

/** An IPv6 address's eight 16-bit groups (a dotted IPv4 tail read as the last two), or null. */
function hextets(ip: string): number[] | null {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    if (!net.isIPv4(tail[1]!)) return null;
    const [a, b, c, d] = v4(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (h: string) => (h ? h.split(':').map((x) => parseInt(x, 16)) : []);
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  const groups = halves.length === 2 ? [...head, ...Array(8 - head.length - rest.length).fill(0), ...rest] : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const fromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * 'public', 'private' (allowed by the setting), or 'never'. An IPv6 address that carries an IPv4
 * one (mapped ::ffff:0:0/96 in any spelling, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the
 * IPv4 address it reaches; IPv4-compatible (::/96), site-local (fec0::/10) and Teredo (2001::/32) never.
 */
export function classifyAddress(ip: string): 'public' | 'private' | 'never' {
  if (net.isIPv4(ip)) {
    const [a, b] = v4(ip);
    if (a === 169 && b === 254) return 'never';
    if (a === 0 || a >= 224) return 'never';
    if (a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
    return 'public';
  }
  if (!net.isIPv6(ip)) return 'never';
  const g = hextets(ip);
  if (!g) return 'never';
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return 'never';
  if (zeros(7) && g[7] === 1) return 'private';
  if (zeros(5) && g[5] === 0xffff) return classifyAddress(fromGroups(g[6]!, g[7]!));
  if (zeros(6)) return 'never';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyAddress(fromGroups(g[6]!, g[7]!));
  if (g[0] === 0x2002) return classifyAddress(fromGroups(g[1]!, g[2]!));
  if (g[0] === 0x2001 && g[1] === 0) return 'never';
  if ((g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0 || (g[0]! & 0xff00) === 0xff00) return 'never';
  if (g[0] === 0xfd00 && g[1] === 0x0ec2) return 'never';
  if ((g[0]! & 0xfe00) === 0xfc00) return 'private';
  return 'public';
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
