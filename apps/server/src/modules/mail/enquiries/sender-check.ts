/**
 * Whether a portal's mail really comes from the portal (decision 090): the Authentication-Results
 * header (RFC 8601) the agency's receiving server added says DKIM passed for a signature of the
 * portal's domain, or DMARC passed for a From of the portal's domain. The From header alone can be
 * written by anyone.
 *
 * Only one header is read: with MAIL_AUTHSERV_ID set, the topmost one of that authserv-id (the
 * receiving server's own); without it, the topmost one, as the last server to receive the mail (the
 * agency's) adds its header above every header that came with the mail. Any header below it may
 * have been written by the sender.
 */
export type TSenderCheck = 'pass' | 'fail' | 'missing';

/** The Authentication-Results headers of a parsed mail, topmost first, each unfolded to one line (mailparser's headerLines). */
export function authResultsOf(headerLines: readonly { key: string; line: string }[]): string[] {
  return headerLines
    .filter((h) => h.key.toLowerCase() === 'authentication-results')
    .map((h) => h.line.slice(h.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim());
}

/** The header without its comments (nested parentheses, outside quoted strings), split at the semicolons outside quotes. */
function partsOf(value: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\\' && (quoted || depth > 0)) {
      if (!depth) cur += c + (value[i + 1] ?? '');
      i++;
    } else if (quoted) {
      cur += c;
      if (c === '"') quoted = false;
    } else if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (depth > 0) continue;
    else if (c === '"') {
      quoted = true;
      cur += c;
    } else if (c === ';') {
      parts.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  parts.push(cur.trim());
  return parts;
}

type Result = { method: string; result: string; props: Map<string, string> };

/** One header: its authserv-id (lower case) and its results ("dkim=pass header.d=x.gr ..."). */
export function parseAuthResults(value: string): { authservId: string; results: Result[] } {
  const [head = '', ...rest] = partsOf(value);
  const authservId = head.split(/\s+/)[0]?.replace(/^"|"$/g, '').toLowerCase() ?? '';
  const results: Result[] = [];
  for (const part of rest) {
    const pairs = [...part.matchAll(/([A-Za-z0-9._/-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s;]+)/g)].map((m) => [m[1]!.toLowerCase(), m[2]!.replace(/^"|"$/g, '')] as const);
    const first = pairs[0];
    if (!first) continue;
    results.push({ method: first[0].split('/')[0]!, result: first[1].toLowerCase(), props: new Map(pairs.slice(1)) });
  }
  return { authservId, results };
}

const domainOf = (v: string | undefined) => (v ? v.slice(v.lastIndexOf('@') + 1).toLowerCase().replace(/\.$/, '') : '');
const aligned = (domain: string, portal: readonly string[]) => !!domain && portal.some((d) => domain === d || domain.endsWith(`.${d}`));

/**
 * The check of a mail that claims to come from a portal of these domains: 'pass' when the trusted
 * header has dkim=pass with header.d (or header.i) of the portal's domain, or dmarc=pass with
 * header.from of the portal's domain; 'missing' when there is no trusted header; else 'fail'.
 */
export function checkSender(headers: readonly string[], portalDomains: readonly string[], authservId?: string): TSenderCheck {
  const parsed = headers.map(parseAuthResults);
  const trusted = authservId ? parsed.find((h) => h.authservId === authservId.toLowerCase()) : parsed[0];
  if (!trusted) return 'missing';
  const ok = trusted.results.some(
    (r) =>
      r.result === 'pass' &&
      ((r.method === 'dkim' && aligned(domainOf(r.props.get('header.d') ?? r.props.get('header.i')), portalDomains)) ||
        (r.method === 'dmarc' && aligned(domainOf(r.props.get('header.from')), portalDomains))),
  );
  return ok ? 'pass' : 'fail';
}
