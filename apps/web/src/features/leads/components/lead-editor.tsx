import { Alert, Stack } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TLeadFieldDescription } from '@crm/contract/lead-fields';
import type { TSelectOption } from '@crm/contract';
import { LOCATION } from '@crm/contract/resources';
import { ACROSS, DescribedInput, FieldGrid, type DescribedForm } from '../../../kit/field-group.tsx';
import { toWire } from '../../../components/fields/field-values.ts';
import { useDescribedEditor, type Drafts } from '../../../kit/use-described-editor.ts';
import { ApiError, call } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import type { AutosaveStatus } from '../../../lib/use-autosave.ts';
import { leadKeys, updateLead, type TLeadAnswer } from '../api/leads.ts';
import { searchAccountHits } from '../../../lib/pickers.ts';
import { matchesKey } from './lead-matches.tsx';
import { leadFormFields, leadFormSections } from '../lead-screen-fields.ts';

type T = (key: string, o?: Record<string, unknown>) => string;

export const leadFieldLabel = (t: T, name: string) => t(`fields.lead.${name}`);
export const leadGroupTitle = (t: T, group: string) => t(`leads.group.${group}`);

/** The choices of a described select field, from the lead's option lists. */
export function leadOptions(d: TLeadFieldDescription, lead: Partial<TLeadAnswer> | undefined): TSelectOption[] {
  if (!d.list || !lead) return [];
  const lists: Record<string, TSelectOption[] | undefined> = {
    sourceList: lead.sourceList,
    stageList: lead.stageList,
    priorityList: lead.priorityList,
    objectSubTypes: lead.objectSubTypeList,
    features: lead.featureList,
  };
  return lists[d.list] ?? [];
}

const EDITED_FIELDS = leadFormFields();

const toWires = (f: Drafts, lead: TLeadAnswer): Record<string, unknown> => Object.fromEntries(EDITED_FIELDS.map((d) => [d.name, toWire(d.type, f[d.name] ?? null, leadOptions(d, lead))]));

const searchPlaces = async (searchStr: string) =>
  (await call(LOCATION.calls.search, { query: { searchStr } })).items.map((i) => ({ value: i.id, text: i.text }));
const searchClients = async (searchStr: string) => (await searchAccountHits(searchStr, 0)).items.map((i) => ({ value: i.id, text: i.description }));

/**
 * The lead's edit form (view modes 1 and 2), made from the lead's field description. Every change
 * is saved about 400 ms later with the version it is based on. When someone else saved first
 * (409), their version is loaded, what only this user changed is re-applied and saved, and the
 * fields both changed keep the other person's value, with a banner naming them.
 */
export function LeadEditor({ initial, onStatus }: { initial: TLeadAnswer; onStatus: (s: AutosaveStatus) => void }) {
  const { t } = useTranslation();
  const id = initial.id;
  const { record: lead, drafts, setDrafts, fieldErrors, saveError, yoursReplaced } = useDescribedEditor<TLeadAnswer>({
    initial,
    fields: EDITED_FIELDS,
    toWires,
    update: (b, changeKey) => updateLead({ id, ...b }, changeKey),
    recordKey: `lead-${id}`,
    publish: (l, client) => {
      client.setQueryData(leadKeys.one(id), l);
      void client.invalidateQueries({ queryKey: leadKeys.lists });
      // What fits the lead follows what it asks for: the matches are asked again after every save.
      void client.invalidateQueries({ queryKey: matchesKey(id) });
    },
    conflictKept: (fields) => t('leads.ui.conflictKept', { fields: fields.join(', ') }),
    fieldLabel: (name) => leadFieldLabel(t, name),
    onStatus,
  });

  const f: DescribedForm = { drafts, set: (name, v) => setDrafts((x) => ({ ...x, [name]: v })), errors: fieldErrors, yoursReplaced };
  const input = (d: TLeadFieldDescription) => (
    <div key={d.name} data-testid={`lead-field-${d.name}`} style={d.type === 'textarea' || d.type === 'multi-select' || d.type === 'flag-enum' ? ACROSS : undefined}>
      <DescribedInput
        d={d}
        f={f}
        label={leadFieldLabel(t, d.name)}
        options={leadOptions(d, lead)}
        minRows={8}
        loadOptions={d.name === 'accountId' ? searchClients : d.type === 'location' ? searchPlaces : undefined}
        valueText={d.name === 'locationId' ? (lead.location ?? undefined) : d.name === 'accountId' ? (lead.account ?? undefined) : undefined}
        placeholder={d.name === 'accountId' ? t('accounts.ui.picker.placeholder') : undefined}
        testId={`lead-${d.name}`}
      />
    </div>
  );

  return (
    <Stack gap="sm" data-testid="lead-editor">
      {saveError != null && !(saveError instanceof ApiError && saveError.status === 400) && (
        <Alert color="red" data-testid="lead-save-error">
          {describeError(saveError).message}
        </Alert>
      )}
      {leadFormSections().map((s) => (
        <SectionCard key={s.group} title={leadGroupTitle(t, s.group)}>
          <FieldGrid>{s.fields.map(input)}</FieldGrid>
        </SectionCard>
      ))}
    </Stack>
  );
}
