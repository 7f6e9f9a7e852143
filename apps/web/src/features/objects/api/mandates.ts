import { queryOptions } from '@tanstack/react-query';
import type { TMandate, TMandateEdit } from '@crm/contract';
import { MANDATE } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

export const mandateKeys = {
  all: ['mandates'] as const,
  ofObject: (objectId: number) => ['mandates', 'object', objectId] as const,
  endingSoon: (mine: boolean) => ['mandates', 'endingSoon', mine] as const,
};

/** A property's mandates and the one in force (GET /api/Mandate?objectId=). */
export const mandatesQuery = (objectId: number) =>
  queryOptions({
    queryKey: mandateKeys.ofObject(objectId),
    queryFn: ({ signal }) => call(MANDATE.calls.list, { query: { objectId } }, { signal }),
    enabled: objectId > 0,
  });

/** Mandates in force ending within 30 days (GET /api/Mandate/endingSoon). */
export const mandatesEndingQuery = (mine: boolean) =>
  queryOptions({
    queryKey: mandateKeys.endingSoon(mine),
    queryFn: ({ signal }) => call(MANDATE.calls.endingSoon, { query: { mine: mine ? '1' : '0' } }, { signal }),
  });

export const saveMandate = (body: TMandateEdit) => call(MANDATE.calls.update, { body });
export const deleteMandate = (m: Pick<TMandate, 'id' | 'version'>) => call(MANDATE.calls.remove, { params: { id: m.id }, query: { version: m.version } });
