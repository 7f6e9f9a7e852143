import type { FastifyInstance } from 'fastify';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { activitiesRoutes } from './activities/activities.routes.ts';
import { assignmentsRoutes } from './assignments/assignments.routes.ts';
import { filesRoutes } from './files/files.routes.ts';
import { fieldsRoutes } from './fields/fields.routes.ts';
import { locationsRoutes } from './locations/locations.routes.ts';
import { objectsRoutes } from './objects/objects.routes.ts';
import { leadsRoutes } from './leads/leads.routes.ts';
import { viewingsRoutes } from './leads/viewings.routes.ts';
import { shortlistsRoutes } from './leads/shortlists.routes.ts';
import { documentsRoutes } from './documents/documents.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { alertsRoutes } from './alerts/alerts.routes.ts';
import { paymentsRoutes } from './payments/payments.routes.ts';
import { paymentsClientRoutes } from './payments-client/payments-client.routes.ts';
import { dealsRoutes } from './deals/deals.routes.ts';
import { reservationsRoutes } from './reservations/reservations.routes.ts';
import { publicSiteRoutes, publishingRoutes } from './publishing/publishing.routes.ts';
import { backupRoutes } from './backup/backup.routes.ts';
import { reportsRoutes } from './reports/reports.routes.ts';
import { importsRoutes } from './imports/imports.routes.ts';

/** Every entity module; app.ts registers them after the platform plugins. */
export async function registerModules(app: FastifyInstance) {
  await app.register(accountsRoutes);
  await app.register(activitiesRoutes);
  await app.register(assignmentsRoutes);
  await app.register(filesRoutes);
  await app.register(objectsRoutes);
  await app.register(fieldsRoutes);
  await app.register(locationsRoutes);
  await app.register(leadsRoutes);
  await app.register(viewingsRoutes);
  await app.register(shortlistsRoutes);
  await app.register(documentsRoutes);
  await app.register(settingsRoutes);
  await app.register(alertsRoutes);
  await app.register(paymentsRoutes);
  await app.register(paymentsClientRoutes);
  await app.register(dealsRoutes);
  await app.register(reservationsRoutes);
  await app.register(publishingRoutes);
  await app.register(publicSiteRoutes);
  await app.register(backupRoutes);
  await app.register(reportsRoutes);
  await app.register(importsRoutes);
}
