import { startMydataServer } from '../apps/server/test/mydata-server.ts';
import { E2E_MYDATA_PORT } from './playwright.config.ts';

/** The credentials the e2e agency enters for myDATA, which the stand-in accepts. */
export const E2E_MYDATA = { userId: 'e2e-agency', key: 'e2e0mydata0subscription0key00001' };

/**
 * Playwright's global setup: the local myDATA stand-in (AADE's documented SendInvoices and
 * RequestTransmittedDocs answers, validated against AADE's XSD) on the port the server is told
 * (MYDATA_URL); closed when the run ends.
 */
export default async function startStandIn() {
  const mydata = await startMydataServer(E2E_MYDATA, E2E_MYDATA_PORT);
  return async () => mydata.close();
}
