import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { DOC_TEMPLATE_API, LinkKind, type TCulture, type TDocSaved, type TDocSource } from '@crm/contract';
import { DOC_TEMPLATE } from '@crm/contract/resources';
import { OFFICE_ADMIN, STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { writeStoredFiles } from '../../storage/pending-files.ts';
import { sendPdf } from '../files/files.service.ts';
import { fillDocument } from './doc-fill.ts';
import { renderPdf } from './doc-pdf.ts';
import { DOC_TEMPLATE_LOG_ENTITY, listTemplates, resetTemplate, saveTemplate } from './doc-texts.ts';

/** Where a document of each source is kept among the files: the mandate's, the deal's, the property's. */
const PARENT: Record<TDocSource, number> = { mandate: LinkKind.Mandate, offer: LinkKind.Deal, handover: LinkKind.Object };

/** The document of a record in a language, made now: its file name and PDF. */
export async function makeDocument(app: FastifyInstance, source: TDocSource, id: number, culture: TCulture, userId: number) {
  const d = await fillDocument(app, source, id, culture, userId);
  const pdf = await renderPdf(d, { pageLabel: (page, pages) => app.translator.t(culture, 'doctemplates.page', { page, pages }) });
  const name = `${d.fileStem.replace(/[\\/:*?"<>|]+/g, ' ').trim()} (${culture}).pdf`;
  return { name, pdf, kind: d.kind, fingerprint: d.fingerprint };
}

/** Stores the document among the record's files (one action-log row), as an upload attached to it would be. */
async function saveDocument(app: FastifyInstance, actor: Actor, source: TDocSource, id: number, culture: TCulture, userId: number): Promise<TDocSaved> {
  const { name, pdf, kind } = await makeDocument(app, source, id, culture, userId);
  const systemName = `${randomBytes(16).toString('hex')}.pdf`;
  const parentType = PARENT[source];
  // Named pending before it is written, claimed by the file row's commit (decisions 104, 109).
  return writeStoredFiles(app, async (stored) => {
    await stored.put(systemName, Readable.from([pdf]));
    return stored.transaction(async (tx) => {
      const next = await tx.execute(sql`select coalesce(max(sort_order), -1) + 1 as n from files where parent_type = ${parentType} and parent_id = ${id}`);
      const sortOrder = Number((next.rows[0] as { n: number }).n);
      const res = await tx.execute(sql`insert into files (system_name, user_name, mime, size, parent_type, parent_id, type, sort_order, created_by)
        values (${systemName}, ${name}, 'application/pdf', ${pdf.length}, ${parentType}, ${id}, 'document', ${sortOrder}, ${userId}) returning id`);
      const fileId = Number((res.rows[0] as { id: number }).id);
      await stored.claim(tx);
      await logAction(tx, actor, { action: 'Create', entity: 'File', entityId: fileId, message: name, data: { systemName, mime: 'application/pdf', size: pdf.length, parentType, parentId: id, template: kind, culture } });
      return { fileId, name, size: pdf.length, parentType, parentId: id };
    });
  });
}

/**
 * The agency's document templates (issue 47, decision 084): their texts per language, edited in the
 * settings by office admins; a document of a mandate, a deal or a property as a PDF, downloaded (the
 * file cookie is accepted: it opens from a link) or stored in the record's files.
 */
export const docTemplatesRoutes = fp(
  async (app: FastifyInstance) => {
    registerCalls(
      app,
      DOC_TEMPLATE.calls,
      DOC_TEMPLATE_API,
      {
        list: { access: OFFICE_ADMIN, handler: async () => listTemplates(app) },
        update: { access: OFFICE_ADMIN, handler: async (req) => saveTemplate(app, req.actor, req.user!.id, req.body) },
        reset: { access: OFFICE_ADMIN, handler: async (req) => resetTemplate(app, req.actor, req.body) },
        pdf: {
          access: STAFF,
          config: { fileCookie: true },
          file: 'The document as a PDF (A4, fonts embedded)',
          handler: async (req, reply) => {
            const { name, pdf, kind } = await makeDocument(app, req.params.source, req.params.id, req.query.culture, req.user!.id);
            // Personal data leaving the system is on the record (GDPR), as the lists' downloads are.
            await logAction(app.db, req.actor, { action: 'Download', entity: DOC_TEMPLATE_LOG_ENTITY, entityId: req.params.id, message: name, data: { source: req.params.source, template: kind, culture: req.query.culture } });
            return sendPdf(reply, pdf, name);
          },
        },
        save: { access: STAFF, handler: async (req) => saveDocument(app, req.actor, req.body.source, req.body.id, req.body.culture, req.user!.id) },
      },
      { tags: ['documents'] },
    );
  },
  { name: 'doc-templates', dependencies: ['objects', 'mandates'] },
);
