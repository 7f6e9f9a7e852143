import { queryOptions } from '@tanstack/react-query';
import type { THome } from '@crm/contract';
import { api } from '../../../lib/api.ts';

/** GET /api/home: the home page's recent changes. Read by the page, asked early by its route. */
export const homeQuery = () => queryOptions({ queryKey: ['home'], queryFn: ({ signal }) => api<THome>('/api/home', { signal }) });
