/** A piece of markup that is already safe (made by `html` or trusted). */
export class Markup {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function render(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Markup) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/** Markup with every value escaped, unless it is Markup itself (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Markup(out);
}

/** XML text and attribute values (no control characters but tab and line breaks). */
export const escapeXml = (s: string) =>
  // eslint-disable-next-line no-control-regex
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
