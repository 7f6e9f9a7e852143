import { Alert, Card, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LEAD_FIELDS, LEAD_GROUPS, type TLeadFieldDescription } from '@crm/contract/lead-fields';
import type { TSelectOption } from '@crm/contract';
import { FieldInput } from '../../../components/fields/field-input.tsx';
import { sameWire, toDraft, toWire, type Draft } from '../../../components/fields/field-values.ts';
import { ApiError, api } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { useAutosave, type AutosaveStatus } from '../../../lib/use-autosave.ts';
import { NotSaved, refusedErrors, saveAround, type Refused } from '../../../lib/refused-fields.ts';
import { useUnsavedGuard } from '../../../lib/unsaved-guard.tsx';
import { leadKeys, updateLead, type TLeadAnswer } from '../api/leads.ts';

type Drafts = Record<string, Draft>;
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

const toDrafts = (l: Record<string, unknown>): Drafts => Object.fromEntries(LEAD_FIELDS.map((d) => [d.name, toDraft(d.type, l[d.name])]));
const toWires = (f: Drafts, lead: TLeadAnswer) => Object.fromEntries(LEAD_FIELDS.map((d) => [d.name, toWire(d.type, f[d.name] ?? null, leadOptions(d, lead))]));
const differing = (a: Record<string, unknown>, b: Record<string, unknown>) => LEAD_FIELDS.filter((d) => !sameWire(d.type, a[d.name], b[d.name])).map((d) => d.name);

const searchPlaces = async (searchStr: string) =>
  (await api<{ items: { id: number; text: string }[] }>('/api/location/search', { query: { searchStr } })).items.map((i) => ({ value: i.id, text: i.text }));

/**
 * The lead's edit form (view modes 1 and 2), made from the lead's field description. Every change
 * is saved about 400 ms later with the version it is based on. When someone else saved first
 * (409), their version is loaded, what only this user changed is re-applied and saved, and the
 * fields both changed keep the other person's value, with a banner naming them.
 */
export function LeadEditor({ initial, onStatus }: { initial: TLeadAnswer; onStatus: (s: AutosaveStatus) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const id = initial.id;
  const [lead, setLead] = useState<TLeadAnswer>(initial);
  const [drafts, setDrafts] = useState<Drafts>(() => toDrafts(initial));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const version = useRef(initial.version);
  const base = useRef(toWires(toDrafts(initial), initial));
  const refused = useRef<Refused>(new Map());
  const resetRef = useRef<(v: Drafts) => void>(() => {});

  const publish = useCallback(
    (l: TLeadAnswer) => {
      client.setQueryData(leadKeys.one(id), l);
      void client.invalidateQueries({ queryKey: leadKeys.lists });
    },
    [client, id],
  );

  const save = useCallback(
    async (f: Drafts) => {
      const now = toWires(f, lead);
      const changed = differing(now, base.current);
      if (!changed.length) {
        setFieldErrors({});
        return;
      }
      const body: Record<string, unknown> = {};
      for (const k of changed) body[k] = now[k];
      let held: Record<string, string>;
      try {
        const around = await saveAround(refused.current, body, (b) => updateLead({ id, version: version.current, ...b }));
        held = around.held;
        const l = around.saved;
        if (l) {
          version.current = l.version;
          // A field held back still differs from the saved lead, so the next save looks at it again.
          base.current = toWires(toDrafts(l), l);
          setLead(l);
          publish(l);
        }
        setFieldErrors(held);
        setSaveError(null);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && e.problem.current) {
          const current = e.problem.current as TLeadAnswer;
          const theirs = toWires(toDrafts(current), current);
          const theyChanged = new Set(differing(theirs, base.current));
          const mine = changed.filter((k) => !theyChanged.has(k));
          const lost = changed.filter((k) => theyChanged.has(k));
          version.current = current.version;
          base.current = theirs;
          setLead(current);
          const next = toDrafts(current);
          for (const k of mine) next[k] = f[k] ?? null;
          if (!mine.length) resetRef.current(next);
          setDrafts(next);
          publish(current);
          const message = e.problem.title || t('errors.conflict');
          showBanner('warning', lost.length ? `${message} ${t('leads.ui.conflictKept', { fields: lost.map((k) => leadFieldLabel(t, k)).join(', ') })}` : message);
          return;
        }
        if (e instanceof ApiError && e.status === 400) setFieldErrors({ ...refusedErrors(refused.current), ...e.fieldErrors });
        setSaveError(e);
        throw e;
      }
      if (Object.keys(held).length) throw new NotSaved(held);
    },
    [id, lead, publish, t],
  );

  const autosave = useAutosave({ value: drafts, save });
  resetRef.current = autosave.reset;
  useUnsavedGuard(autosave);
  useEffect(() => onStatus(autosave.status), [autosave.status, onStatus]);

  const input = (d: TLeadFieldDescription) => (
    <div key={d.name} data-testid={`lead-field-${d.name}`} style={d.type === 'textarea' || d.type === 'multi-select' || d.type === 'flag-enum' ? { gridColumn: '1 / -1' } : undefined}>
      <FieldInput
        type={d.type}
        label={leadFieldLabel(t, d.name)}
        value={drafts[d.name] ?? null}
        onChange={(v) => setDrafts((f) => ({ ...f, [d.name]: v }))}
        error={fieldErrors[d.name]}
        options={leadOptions(d, lead)}
        maxLength={d.max}
        loadOptions={d.type === 'location' ? searchPlaces : undefined}
        valueText={d.name === 'locationId' ? (lead.location ?? undefined) : undefined}
        testId={`lead-${d.name}`}
        autoFocus={false}
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
      {LEAD_GROUPS.map((g) => (
        <Card key={g} withBorder padding="sm">
          <Title order={3} size="h5" mb="xs">
            {leadGroupTitle(t, g)}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs">
            {LEAD_FIELDS.filter((d) => d.group === g).map(input)}
          </SimpleGrid>
        </Card>
      ))}
    </Stack>
  );
}
