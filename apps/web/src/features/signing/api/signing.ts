import { queryOptions } from '@tanstack/react-query';
import type { TSignBody } from '@crm/contract';
import { SIGN_REQUEST } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/** GET /api/sign/{token}: the signer's request (no sign-in). */
export const signQuery = (token: string) =>
  queryOptions({
    queryKey: ['sign', token] as const,
    queryFn: ({ signal }) => call(SIGN_REQUEST.calls.view, { params: { token } }, { signal, handle401: true }),
    retry: false,
  });

/** POST /api/sign/{token}. */
export const signDocument = (token: string, body: TSignBody) => call(SIGN_REQUEST.calls.sign, { params: { token }, body }, { handle401: true });
