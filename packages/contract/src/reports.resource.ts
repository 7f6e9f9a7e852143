import { calls } from './call.ts';
import type { REPORT_API } from './reports.ts';

/** Reports: the agents' results over a period, on screen and as Results.xlsx (decision 057). */
export const REPORT = {
  calls: calls<typeof REPORT_API>({
    results: 'POST /api/report/results',
    download: 'POST /api/report/results/download',
  }),
  screens: {
    results: '/Reports',
  },
} as const;
