/**
 * Reads an .eml file of the outbox as a mail program would (mailparser is not installed): the
 * headers (encoded words decoded), and each leaf part of a multipart mail with its type, its
 * headers and its body decoded (base64 or quoted-printable).
 */
export type MimePart = { type: string; headers: string; body: Buffer; text: string };
export type ParsedMail = { headers: string; header: (name: string) => string | undefined; type: string; parts: MimePart[] };

const unfold = (head: string) => head.replace(/\r?\n[ \t]+/g, ' ');

/** "=?UTF-8?B?...?=" and "=?UTF-8?Q?...?=" words of a header, as text. */
export function decodeWords(v: string): string {
  return v
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=/g, (_m, _cs: string, enc: string, data: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
    );
}

function headerOf(head: string, name: string): string | undefined {
  const line = unfold(head)
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? undefined : decodeWords(line.slice(name.length + 1).trim());
}

function decodeBody(raw: string, enc: string | undefined): Buffer {
  const e = enc?.toLowerCase();
  if (e === 'base64') return Buffer.from(raw.replace(/\s+/g, ''), 'base64');
  if (e === 'quoted-printable') return Buffer.from(raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
  return Buffer.from(raw, 'utf8');
}

function split(eml: string) {
  const m = /\r?\n\r?\n/.exec(eml);
  return m ? { head: eml.slice(0, m.index), raw: eml.slice(m.index + m[0].length) } : { head: eml, raw: '' };
}

function leaves(head: string, raw: string): MimePart[] {
  const type = headerOf(head, 'Content-Type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const chunks = raw.split(`--${boundary}`).slice(1);
    return chunks.filter((c) => !c.startsWith('--')).flatMap((c) => {
      const part = split(c.replace(/^\r?\n/, ''));
      return leaves(part.head, part.raw.replace(/\r?\n$/, ''));
    });
  }
  const body = decodeBody(raw, headerOf(head, 'Content-Transfer-Encoding'));
  return [{ type: type.split(';')[0]!.trim().toLowerCase(), headers: head, body, text: body.toString('utf8') }];
}

export function parseMail(eml: string): ParsedMail {
  const { head, raw } = split(eml);
  return { headers: head, header: (n) => headerOf(head, n), type: (headerOf(head, 'Content-Type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase(), parts: leaves(head, raw) };
}
