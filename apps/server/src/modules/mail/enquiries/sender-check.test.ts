import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { authResultsOf, checkSender, parseAuthResults } from './sender-check.ts';
import { PORTAL_DOMAINS } from './read.ts';

/**
 * The sender check of a portal's mail (decision 090) on sample Authentication-Results headers, read
 * from raw mail through the sync's MIME parser: a pass, a fail, none at all, and a forged "pass"
 * written by the sender below the receiving server's real verdict.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../../../test/fixtures/enquiries');
const sample = fs.readFileSync(path.join(FIXTURES, 'spitogatos.en.eml'), 'utf8');
/** The sample mail with these Authentication-Results headers in place of its own, topmost first. */
const withHeaders = (...headers: string[]) => sample.replace(/^Authentication-Results:[^\n]*\n(?:[ \t][^\n]*\n)*/m, headers.map((h) => `Authentication-Results: ${h}\n`).join(''));
async function check(raw: string, authservId?: string) {
  const p = await simpleParser(Buffer.from(raw), { skipTextToHtml: true });
  return checkSender(authResultsOf(p.headerLines), PORTAL_DOMAINS.spitogatos, authservId);
}
const OURS = 'mx.thermaikos-homes.gr';

describe('the sender check of portal mail', () => {
  it('passes a mail the receiving server found signed by the portal (DKIM) or aligned with it (DMARC), folded and with comments', async () => {
    expect(await check(sample)).toBe('pass');
    expect(await check(sample, OURS)).toBe('pass');
    expect(await check(withHeaders(`${OURS}; dkim=pass (2048-bit key; unprotected) header.d=mail.spitogatos.gr header.s=s1; dmarc=none`))).toBe('pass');
    expect(await check(withHeaders(`${OURS} 1; dkim=fail header.d=spitogatos.gr;\n\tdmarc=pass (p=reject) header.from=spitogatos.gr`))).toBe('pass');
    expect(await check(withHeaders(`${OURS}; dkim=pass header.i=@spitogatos.com`))).toBe('pass');
  });

  it('fails a mail whose signature or DMARC failed, or passed only for another domain', async () => {
    expect(await check(withHeaders(`${OURS}; dkim=fail header.d=spitogatos.gr; spf=pass smtp.mailfrom=spitogatos.gr; dmarc=fail (p=reject) header.from=spitogatos.gr`))).toBe('fail');
    // A valid signature of the forger's own domain is no proof for the portal's.
    expect(await check(withHeaders(`${OURS}; dkim=pass header.d=spitogatos.gr.evil.test; dmarc=pass header.from=notspitogatos.gr`))).toBe('fail');
    // SPF alone proves the envelope, not the From a reader sees.
    expect(await check(withHeaders(`${OURS}; spf=pass smtp.mailfrom=noreply@spitogatos.gr`))).toBe('fail');
    expect(await check(withHeaders(`${OURS}; none`))).toBe('fail');
    // "pass" inside a comment is no result.
    expect(await check(withHeaders(`${OURS}; dkim=neutral (dkim=pass header.d=spitogatos.gr) header.d=spitogatos.gr`))).toBe('fail');
  });

  it('has nothing to trust in a mail without the header, or without one of the configured server', async () => {
    expect(await check(withHeaders())).toBe('missing');
    expect(await check(withHeaders(`mx.other-isp.test; dkim=pass header.d=spitogatos.gr`), OURS)).toBe('missing');
  });

  it('reads only the receiving server\'s header: a forged "pass" below its real verdict, or one naming another server, is not believed', async () => {
    const forged = `${OURS}; dkim=pass header.d=spitogatos.gr; dmarc=pass header.from=spitogatos.gr`;
    const real = `${OURS}; dkim=none; spf=softfail smtp.mailfrom=forger.test; dmarc=fail (p=reject) header.from=spitogatos.gr`;
    // Without MAIL_AUTHSERV_ID the topmost one (the last server's) is read; with it, the topmost of that id.
    expect(await check(withHeaders(real, forged))).toBe('fail');
    expect(await check(withHeaders(real, forged), OURS)).toBe('fail');
    // A forged header of another authserv-id above the real one: the configured id finds the real one.
    expect(await check(withHeaders(`evil.test; dkim=pass header.d=spitogatos.gr`, real), OURS)).toBe('fail');
    expect(await check(withHeaders(`evil.test; dkim=fail`, forged.replace(OURS, OURS.toUpperCase())), OURS)).toBe('pass');
  });

  it('parses the authserv-id, each method and its properties', () => {
    expect(parseAuthResults('Mx.Example.GR 1; dkim/1=pass reason="good sig" header.d=a.gr (c) header.s=x; spf=fail smtp.mailfrom="a@b.gr"')).toEqual({
      authservId: 'mx.example.gr',
      results: [
        { method: 'dkim', result: 'pass', props: new Map([['reason', 'good sig'], ['header.d', 'a.gr'], ['header.s', 'x']]) },
        { method: 'spf', result: 'fail', props: new Map([['smtp.mailfrom', 'a@b.gr']]) },
      ],
    });
  });
});
