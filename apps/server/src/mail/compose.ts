import type { TCulture } from '@crm/contract';
import type { Mail } from './mailer.ts';
import { greetingLine, type TRecipient } from './greeting.ts';

/**
 * One way every mail is written (decision 077): a plain-text part
 * and an HTML part (simple tables, inline styles, readable on a phone; the agency's logo as an
 * inline CID attachment, never a remote image; the agency's colour), the agency's name as the
 * sender's name, a greeting in the reader's grammar and a signature with the agent's full name and
 * phone and the agency's details. The mail stays plain data (the logo in base64) so the mail job
 * keeps it as it is.
 */

/** The agency as its mail shows it; each detail null (or absent) when not set. */
export type AgencyIdentity = {
  name: string | null;
  /** The name in Latin letters, for mails in English and Russian (the Greek name when absent). */
  nameLatin?: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  /** The registry number (ΓΕΜΗ). */
  registry: string | null;
  /** The tax number (ΑΦΜ). */
  taxNumber: string | null;
  /** The tax office (ΔΟΥ). */
  taxOffice?: string | null;
  webAddress?: string | null;
  /** The logo's image, in base64 (PNG, JPEG or GIF: mail programs show no SVG). */
  logo?: { contentType: string; base64: string } | null;
  /** The agency's colour (#rrggbb) for the header and links; a deep blue when not set. */
  color?: string | null;
};

/** Who signs: a person's full name and phone (never a sign-in name). */
export type MailAgent = { fullName: string; phone?: string | null; email?: string | null };

/** A part of the letter's body. */
export type MailBlock = { p: string } | { link: string; label?: string } | { list: string[] } | { note: string };

export type ComposeInput = {
  to: string;
  culture: TCulture;
  t: (key: string, params?: Record<string, string | number>) => string;
  agency: AgencyIdentity;
  /** The person written to; null greets neutrally. */
  recipient: TRecipient | null;
  /** The agent who sends it; null signs with the agency alone. */
  agent: MailAgent | null;
  subject: string;
  body: MailBlock[];
  /** A greeting line other than the reader's name (a mail to the office's own staff). */
  greeting?: string;
};

export const LOGO_CID = 'agency-logo@crm';
const DEFAULT_COLOR = '#1b4f8a';
const FALLBACK_AGENCY = 'Agency CRM';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const safeColor = (c: string | null | undefined) => (c && /^#[0-9a-f]{6}$/i.test(c) ? c : DEFAULT_COLOR);
const present = (s: string | null | undefined): s is string => !!s && s.trim() !== '';

/** The agency's name for the reader: the Latin one in English and Russian when there is one. */
export function agencyName(agency: AgencyIdentity, culture: TCulture, fallback = FALLBACK_AGENCY): string {
  const latin = culture !== 'el' && present(agency.nameLatin) ? agency.nameLatin : undefined;
  return (latin ?? agency.name ?? agency.nameLatin ?? '').trim() || fallback;
}

/** The agency's details under the signature, one line each, labelled in the reader's language. */
function agencyLines(o: ComposeInput): string[] {
  const a = o.agency;
  const tax = [present(a.taxNumber) ? `${o.t('mail.sign.taxNumber')} ${a.taxNumber}` : null, present(a.taxOffice) ? `${o.t('mail.sign.taxOffice')} ${a.taxOffice}` : null].filter(Boolean).join(', ');
  return [
    agencyName(a, o.culture, o.t('publishing.site.name')),
    present(a.address) ? a.address : null,
    [present(a.phone) ? `${o.t('mail.sign.phone')} ${a.phone}` : null, present(a.email) ? a.email : null].filter(Boolean).join(' · ') || null,
    present(a.webAddress) ? a.webAddress : null,
    present(a.registry) ? `${o.t('mail.sign.registry')} ${a.registry}` : null,
    tax || null,
  ].filter((l): l is string => !!l);
}

function agentLines(o: ComposeInput): string[] {
  if (!o.agent || !present(o.agent.fullName)) return [];
  return [o.agent.fullName.trim(), present(o.agent.phone) ? `${o.t('mail.sign.phone')} ${o.agent.phone}` : null, present(o.agent.email) ? o.agent.email : null].filter((l): l is string => !!l);
}

function textPart(o: ComposeInput, greeting: string): string {
  const body = o.body.map((b) => ('p' in b ? b.p : 'note' in b ? b.note : 'list' in b ? b.list.map((i) => `• ${i}`).join('\n') : b.label ? `${b.label}\n${b.link}` : b.link));
  const sign = [o.t('mail.closing'), ...agentLines(o)].join('\n');
  return [greeting, ...body, sign, `--\n${agencyLines(o).join('\n')}`].join('\n\n') + '\n';
}

function htmlPart(o: ComposeInput, greeting: string): string {
  const color = safeColor(o.agency.color);
  const name = agencyName(o.agency, o.culture, o.t('publishing.site.name'));
  const font = "font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#222222";
  const p = (html: string, style = '') => `<p style="margin:0 0 16px 0;${style}">${html}</p>`;
  const lines = (ls: string[]) => ls.map(esc).join('<br>');
  const body = o.body
    .map((b) => {
      if ('p' in b) return p(lines(b.p.split('\n')));
      if ('note' in b) return p(lines(b.note.split('\n')), 'font-size:14px;color:#555555');
      if ('list' in b) return `<ul style="margin:0 0 16px 0;padding:0 0 0 20px">${b.list.map((i) => `<li style="margin:0 0 6px 0">${esc(i)}</li>`).join('')}</ul>`;
      const label = b.label ?? o.t('mail.openLink');
      return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px 0"><tr><td style="background:${color};border-radius:4px"><a href="${esc(b.link)}" style="display:inline-block;padding:12px 20px;color:#ffffff;text-decoration:none;font-weight:bold">${esc(label)}</a></td></tr></table>${p(`<a href="${esc(b.link)}" style="color:${color};word-break:break-all;font-size:13px">${esc(b.link)}</a>`)}`;
    })
    .join('');
  const header = o.agency.logo
    ? `<img src="cid:${LOGO_CID}" alt="${esc(name)}" style="display:block;max-width:200px;max-height:64px;border:0">`
    : `<span style="font-size:20px;font-weight:bold;color:#ffffff">${esc(name)}</span>`;
  const agent = agentLines(o);
  const sign = p([esc(o.t('mail.closing')), ...agent.map((l, i) => (i === 0 ? `<strong>${esc(l)}</strong>` : esc(l)))].join('<br>'));
  const details = `<p style="margin:0;font-size:13px;line-height:1.5;color:#666666">${lines(agencyLines(o))}</p>`;
  return `<!DOCTYPE html>
<html lang="${o.culture}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(o.subject)}</title></head>
<body style="margin:0;padding:0;background:#f2f4f7">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f2f4f7"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border-radius:6px;${font}">
<tr><td style="padding:16px 24px;background:${o.agency.logo ? '#ffffff' : color};border-bottom:4px solid ${color};border-radius:6px 6px 0 0">${header}</td></tr>
<tr><td style="padding:24px;${font}">${p(esc(greeting))}${body}${sign}</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e3e6ea">${details}</td></tr>
</table></td></tr></table>
</body></html>
`;
}

/** The mail, ready for the mailer: both parts, the logo attached inline when the agency has one. */
export function composeMail(o: ComposeInput): Mail {
  const greeting = o.greeting ?? greetingLine(o.culture, o.recipient, o.t);
  return {
    to: o.to,
    subject: o.subject,
    fromName: agencyName(o.agency, o.culture, o.t('publishing.site.name')),
    text: textPart(o, greeting),
    html: htmlPart(o, greeting),
    ...(o.agency.logo ? { attachments: [{ filename: `logo.${o.agency.logo.contentType.split('/')[1] ?? 'png'}`, contentType: o.agency.logo.contentType, contentBase64: o.agency.logo.base64, cid: LOGO_CID }] } : {}),
  };
}
