import { PDFDict, PDFDocument as PdfLibDocument, PDFName, PDFRef } from 'pdf-lib';
import { startPdf } from '../../lib/pdf.ts';

/** What the record page of a signed document says; every line already in the signer's language. */
export type SealPage = {
  title: string;
  rows: [label: string, value: string][];
  signatureLabel: string;
  /** The drawn signature (a validated PNG), or null when the signer typed the name alone. */
  signature: Buffer | null;
  noSignatureDrawn: string;
  notice: string;
  culture: string;
};

const MARGIN = 56;

/** The record page alone, as a one-page A4 PDF (pdfkit, DejaVu Sans embedded: Greek and Cyrillic). */
export async function renderSealPage(p: SealPage): Promise<Buffer> {
  const { doc, done } = startPdf({ size: 'A4', margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN }, lang: p.culture, info: { Title: p.title } });
  const width = doc.page.width - 2 * MARGIN;
  doc.font('bold').fontSize(14).text(p.title, MARGIN, MARGIN, { width, align: 'center' });
  doc.moveDown(1.2);
  for (const [label, value] of p.rows) {
    doc.font('bold').fontSize(9.5).text(label, MARGIN, doc.y, { width });
    doc.font('regular').fontSize(10).text(value, MARGIN, doc.y, { width });
    doc.moveDown(0.5);
  }
  doc.moveDown(0.5);
  doc.font('bold').fontSize(9.5).text(p.signatureLabel, MARGIN, doc.y, { width });
  const top = doc.y + 4;
  if (p.signature) {
    doc.rect(MARGIN, top, 260, 110).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.image(p.signature, MARGIN + 5, top + 5, { fit: [250, 100] });
    doc.y = top + 118;
  } else {
    doc.font('regular').fontSize(10).text(p.noSignatureDrawn, MARGIN, top, { width });
    doc.moveDown(0.5);
  }
  doc.moveDown(0.8);
  doc.font('regular').fontSize(8.5).fillColor('#555555').text(p.notice, MARGIN, doc.y, { width, align: 'justify' });
  doc.end();
  return done;
}

/**
 * The signed document: the very bytes that were sent, unchanged, followed by an incremental update
 * (ISO 32000-1, 7.5.6) that adds the record page at the end. The original is a byte prefix of the
 * result, so anyone can cut it off at the stored length and check its SHA-256; any PDF reader shows
 * the pages of the original and then the record page.
 */
export async function appendPagesIncrementally(original: Buffer, extra: Buffer): Promise<Buffer> {
  const doc = await PdfLibDocument.load(original, { updateMetadata: false });
  const before = doc.context.largestObjectNumber;
  const src = await PdfLibDocument.load(extra, { updateMetadata: false });
  const copied = await doc.copyPages(src, src.getPageIndices());
  const changed = new Set<number>();
  for (const page of copied) {
    doc.addPage(page);
    // The page tree nodes above the new page: their Kids and Count changed.
    let parent = page.node.get(PDFName.of('Parent'));
    while (parent instanceof PDFRef && !changed.has(parent.objectNumber)) {
      changed.add(parent.objectNumber);
      parent = doc.context.lookup(parent, PDFDict).get(PDFName.of('Parent'));
    }
  }
  const written = doc.context
    .enumerateIndirectObjects()
    .filter(([ref]) => ref.objectNumber > before || changed.has(ref.objectNumber))
    .sort(([a], [b]) => a.objectNumber - b.objectNumber);
  const parts: Buffer[] = [original];
  let offset = original.length;
  if (original[original.length - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    offset++;
  }
  const offsets: [number, number, number][] = [];
  for (const [ref, obj] of written) {
    const body = new Uint8Array(obj.sizeInBytes());
    obj.copyBytesInto(body, 0);
    const bytes = Buffer.concat([Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`, 'latin1'), Buffer.from(body), Buffer.from('\nendobj\n', 'latin1')]);
    offsets.push([ref.objectNumber, ref.generationNumber, offset]);
    parts.push(bytes);
    offset += bytes.length;
  }
  // The cross-reference section of the update: one subsection per run of consecutive numbers.
  let xref = 'xref\n';
  for (let i = 0; i < offsets.length; ) {
    let j = i;
    while (j + 1 < offsets.length && offsets[j + 1]![0] === offsets[j]![0] + 1) j++;
    xref += `${offsets[i]![0]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) xref += `${String(offsets[k]![2]).padStart(10, '0')} ${String(offsets[k]![1]).padStart(5, '0')} n \n`;
    i = j + 1;
  }
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(original.subarray(Math.max(0, original.length - 1024)).toString('latin1'))?.[1];
  if (!prev) throw new Error('The document has no cross-reference offset at its end');
  const info = doc.context.trailerInfo;
  const trailer = [`/Size ${doc.context.largestObjectNumber + 1}`, `/Root ${String(info.Root)}`, info.Info ? `/Info ${String(info.Info)}` : '', info.ID ? `/ID ${String(info.ID)}` : '', `/Prev ${prev}`].filter(Boolean).join(' ');
  parts.push(Buffer.from(`${xref}trailer\n<< ${trailer} >>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
