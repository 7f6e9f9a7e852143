import { inflateSync } from 'node:zlib';

/**
 * A small PDF reader for the tests (and the e2e run): reads back what a PDF made with embedded
 * TrueType fonts (pdfkit's Type0/Identity-H) says. It inflates FlateDecode streams, reads each
 * font's ToUnicode map, walks each page's content stream (Tf, TJ, Tj; BT starts a new line) and
 * turns the glyph codes back into text. Enough for the documents the CRM makes; not a general reader.
 */
export type PdfRead = { version: string; pages: string[]; text: string; fonts: string[]; embeddedFonts: number; images: number };

type Obj = { dict: string; stream: Buffer | null };

function objects(pdf: Buffer): Map<number, Obj> {
  const s = pdf.toString('latin1');
  const out = new Map<number, Obj>();
  const re = /(\d+) 0 obj\b/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    const start = m.index + m[0].length;
    const end = s.indexOf('endobj', start);
    const body = s.slice(start, end);
    const at = body.indexOf('stream');
    let dict = body;
    let stream: Buffer | null = null;
    if (at >= 0 && !body.slice(0, at).endsWith('end')) {
      dict = body.slice(0, at);
      let from = start + at + 'stream'.length;
      if (s[from] === '\r') from++;
      if (s[from] === '\n') from++;
      const len = /\/Length (\d+)/.exec(dict);
      const raw = pdf.subarray(from, len ? from + Number(len[1]) : start + body.lastIndexOf('endstream'));
      stream = /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw;
    }
    out.set(Number(m[1]), { dict, stream });
    re.lastIndex = end;
  }
  return out;
}

/** A ToUnicode CMap as code -> text (bfchar and bfrange, with and without arrays). */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const hex = (h: string) => String.fromCodePoint(...(h.replace(/\s+/g, '').match(/.{4}/g) ?? []).map((x) => parseInt(x, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, text] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g)) map.set(parseInt(code!, 16), hex(text!));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, rest] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F\s]+>)/g)) {
      const a = parseInt(lo!, 16);
      const b = parseInt(hi!, 16);
      if (rest!.startsWith('[')) [...rest!.matchAll(/<([0-9a-fA-F\s]+)>/g)].forEach((x, i) => map.set(a + i, hex(x[1]!)));
      else for (let c = a, first = parseInt(rest!.slice(1, -1), 16); c <= b; c++) map.set(c, String.fromCodePoint(first + c - a));
    }
  }
  return map;
}

const ref = (dict: string, key: string) => {
  const m = new RegExp(`/${key} (\\d+) 0 R`).exec(dict);
  return m ? Number(m[1]) : null;
};

export function readPdf(pdf: Buffer): PdfRead {
  const objs = objects(pdf);
  const fonts: string[] = [];
  let embeddedFonts = 0;
  let images = 0;
  for (const o of objs.values()) {
    const base = /\/Type \/Font[\s\S]*\/BaseFont \/([^\s/]+)/.exec(o.dict);
    if (base && /\/Subtype \/Type0/.test(o.dict)) fonts.push(base[1]!);
    if (/\/FontFile2 \d+ 0 R/.test(o.dict)) embeddedFonts++;
    if (/\/Subtype \/Image/.test(o.dict)) images++;
  }
  const pageObjs = [...objs.values()].filter((o) => /\/Type \/Page\b/.test(o.dict));
  const pages = pageObjs.map((page) => {
    const resId = ref(page.dict, 'Resources');
    const resources = resId !== null ? objs.get(resId)!.dict : page.dict;
    const fontDict = /\/Font <<([\s\S]*?)>>/.exec(resources)?.[1] ?? '';
    const maps = new Map<string, Map<number, string>>();
    for (const [, name, id] of fontDict.matchAll(/\/(\S+) (\d+) 0 R/g)) {
      const tu = ref(objs.get(Number(id))?.dict ?? '', 'ToUnicode');
      maps.set(name!, tu !== null ? toUnicode(objs.get(tu)!.stream!.toString('latin1')) : new Map());
    }
    const content = objs.get(ref(page.dict, 'Contents') ?? -1)?.stream?.toString('latin1') ?? '';
    let font = new Map<number, string>();
    let text = '';
    for (const [, fontName, bt, arr, single] of content.matchAll(/\/(\S+) [\d.]+ Tf|(\bBT\b)|\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\] TJ|<([0-9a-fA-F]*)> Tj/g)) {
      if (fontName) font = maps.get(fontName) ?? new Map();
      else if (bt) text += '\n';
      else {
        // A wide gap between two runs is a space the line's justification drew as an offset.
        for (const [, h, gap] of (arr ?? `<${single}>`).matchAll(/<([0-9a-fA-F]*)>|(-?[\d.]+)/g)) {
          if (gap !== undefined) text += Number(gap) <= -250 ? ' ' : '';
          else for (const code of h!.match(/.{4}/g) ?? []) text += font.get(parseInt(code, 16)) ?? '\uFFFD';
        }
      }
    }
    return text.replace(/^\n/, '');
  });
  return { version: pdf.subarray(0, 8).toString('latin1'), pages, text: pages.join('\n'), fonts, embeddedFonts, images };
}
