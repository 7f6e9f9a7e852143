import type { FastifyInstance } from 'fastify';
import { registerJobAlerts } from './alerts.jobs.ts';

/** Alerts: the office's inbox of things that need doing (decision 020). */
export async function alertsRoutes(app: FastifyInstance) {
  registerJobAlerts(app);
}
