import { startPdf } from '../../lib/pdf.ts';
import type { TFilledDoc } from './doc-fill.ts';

const MARGIN = 56;
const GRAY = '#555555';

type PdfOptions = { pageLabel: (page: number, pages: number) => string; compress?: boolean };

/**
 * The filled document as an A4 PDF: the agency's header (logo when set, name, registry and tax
 * numbers, address) on the first page, the title, the paragraphs (headings bold), the signature
 * blocks side by side kept together, and "page n of m" at the foot of every page.
 */
export async function renderPdf(d: TFilledDoc, opts: PdfOptions): Promise<Buffer> {
  const logo = d.agency.logo ? await d.agency.logo().catch(() => undefined) : undefined;
  const { doc, done } = startPdf({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN + 14, left: MARGIN, right: MARGIN },
    bufferPages: true,
    compress: opts.compress ?? true,
    lang: d.culture,
    info: { Title: d.title, Author: d.agency.name, Creator: d.agency.name },
  });
  const width = doc.page.width - 2 * MARGIN;

  // The header: the logo at the left, the agency's name and numbers beside it.
  const top = doc.y;
  let textX = MARGIN;
  if (logo) {
    try {
      doc.image(logo, MARGIN, top, { fit: [110, 48] });
      textX = MARGIN + 122;
    } catch {
      textX = MARGIN;
    }
  }
  doc.font('bold').fontSize(12.5).fillColor('black').text(d.agency.name, textX, top, { width: width - (textX - MARGIN) });
  doc.font('regular').fontSize(8.5).fillColor(GRAY);
  for (const line of d.agency.lines) doc.text(line, textX, doc.y + 1, { width: width - (textX - MARGIN) });
  const below = Math.max(doc.y, logo ? top + 50 : doc.y) + 8;
  doc.moveTo(MARGIN, below).lineTo(MARGIN + width, below).lineWidth(0.7).strokeColor('#999999').stroke();
  doc.fillColor('black');
  doc.y = below + 18;

  doc.font('bold').fontSize(14).text(d.title, MARGIN, doc.y, { width, align: 'center' });
  doc.moveDown(1);
  for (const b of d.blocks) {
    // A heading block is its `## ` line and, when no blank line follows it, the paragraph under it:
    // only the heading's line is bold (the rendered page showed whole sections in bold, issue 47).
    const lines = b.text.split('\n');
    const head = b.heading ? lines.shift() : undefined;
    if (head !== undefined) {
      if (doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
      doc.moveDown(0.4).font('bold').fontSize(10.5).text(head, MARGIN, doc.y, { width });
      doc.moveDown(0.25);
    }
    const para = lines.join('\n').trim();
    if (para !== '') {
      doc.font('regular').fontSize(10).text(para, MARGIN, doc.y, { width, align: 'justify', lineGap: 1.5 });
      doc.moveDown(0.55);
    }
  }

  // The signature blocks, up to three a row, each row kept on one page.
  const cols = Math.min(3, Math.max(1, d.signatures.length));
  const colWidth = width / cols;
  doc.moveDown(1.2);
  for (let i = 0; i < d.signatures.length; i += cols) {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 110) doc.addPage();
    const rowTop = doc.y;
    let rowBottom = rowTop;
    d.signatures.slice(i, i + cols).forEach((label, j) => {
      const x = MARGIN + j * colWidth + 10;
      doc.font('bold').fontSize(10).text(label, x, rowTop, { width: colWidth - 20, align: 'center' });
      const lineY = doc.y + 52;
      doc.moveTo(x + 20, lineY).lineTo(x + colWidth - 40, lineY).lineWidth(0.5).strokeColor('#333333').stroke();
      rowBottom = Math.max(rowBottom, lineY + 16);
    });
    doc.y = rowBottom;
  }

  // Page numbers, written into the bottom margin of every page once all pages exist.
  const range = doc.bufferedPageRange();
  for (let p = range.start; p < range.start + range.count; p++) {
    doc.switchToPage(p);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(8).fillColor(GRAY).text(opts.pageLabel(p + 1, range.count), MARGIN, doc.page.height - MARGIN + 6, { width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
