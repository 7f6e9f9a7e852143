import { queryOptions } from '@tanstack/react-query';
import type { TDocTemplateEdit, TDocTemplateKind, TCulture } from '@crm/contract';
import { DOC_TEMPLATE } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

export const docTemplatesKey = ['docTemplates'] as const;

/** Every template in every language, and the placeholders each may hold (GET /api/DocTemplate). */
export const docTemplatesQuery = () =>
  queryOptions({
    queryKey: docTemplatesKey,
    queryFn: ({ signal }) => call(DOC_TEMPLATE.calls.list, {}, { signal }),
  });

export const saveDocTemplate = (body: TDocTemplateEdit) => call(DOC_TEMPLATE.calls.update, { body });
export const resetDocTemplate = (body: { kind: TDocTemplateKind; culture: TCulture; version: number }) => call(DOC_TEMPLATE.calls.reset, { body });
