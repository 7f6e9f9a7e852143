import { Anchor, Badge, Card, Group, Progress, Stack, Text } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TFieldDescription, TObjectGroup } from '@crm/contract/object-fields';
import { OBJECT_EDITABLE_FIELDS } from '@crm/contract/object-fields';
import type { TObjectPublishState, TObjectSelectLists } from '@crm/contract';
import { toDraft, toWire, type Draft } from '../../../components/fields/field-values.ts';
import { useDescribedEditor, type Drafts } from '../../../kit/use-described-editor.ts';
import { SaveFailed } from '../../../kit/save-failed.tsx';
import type { InPlaceEditorProps } from '../../../kit/record-autosave.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { DescribedInput, FieldGrid, type DescribedForm } from '../../../kit/field-group.tsx';
import { objectKeys, updateObject, type TObjectEdit, type TRealtyObject } from '../api/objects.ts';
import { loadLocationOptions } from '../api/locations.ts';
import { shownPublished } from '../api/publish-state.ts';
import { OBJECT_FORM_SECTIONS, fieldLabel, formFieldsOf, groupTitle, optionsFor } from '../object-display.ts';
import { ContactsEditor } from './object-contacts.tsx';
import { mapValueOf } from './object-map-slot.tsx';
import { ObjectMap, type TMapValue } from './object-map.tsx';
import { PhotosSection } from './object-photos.tsx';
import { PublishStatus } from './publish-status.tsx';
import { MandateInForce } from './mandates-card.tsx';
import { FeatureChecklist } from './feature-checklist.tsx';


/** The map's fields: edited on the map (and its own inputs), not one by one. */
const MAP_FIELDS = OBJECT_EDITABLE_FIELDS.filter((d) => d.group === 'map');


const wireOf = (d: TFieldDescription, drafts: Drafts, lists: TObjectSelectLists) => toWire(d.type, drafts[d.name] ?? null, optionsFor(d, lists));
const toWires = (drafts: Drafts, lists: TObjectSelectLists): Record<string, unknown> =>
  Object.fromEntries(OBJECT_EDITABLE_FIELDS.map((d) => [d.name, wireOf(d, drafts, lists)]));

/**
 * The object's edit form (view modes 1 and 2), generated from the field description: each group's
 * fields with the input of their type. Every change is saved about 400 ms later with the version
 * the form is based on. A 409 (someone else saved first) loads their version, keeps what they
 * changed, re-applies what only this user changed, and says so; nothing typed is silently lost.
 */
export function ObjectEditor({ initial, expanded, onStatus }: InPlaceEditorProps<TObjectEdit>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const lists = initial.objectSelectLists;
  const id = initial.object.id;
  const { record, setRecord, drafts, setDrafts, fieldErrors, saveError, yoursReplaced } = useDescribedEditor<TRealtyObject>({
    initial: initial.object as TRealtyObject,
    fields: OBJECT_EDITABLE_FIELDS,
    toWires: (f) => toWires(f, lists),
    update: (b, changeKey) => updateObject({ id, ...b }, changeKey),
    recordKey: `object-${id}`,
    publish: (o) => {
      client.setQueryData<TObjectEdit>(objectKeys.edit(id), (old) => (old ? { ...old, object: o } : old));
      // Views (by id or by ref) are refetched when shown: they carry lists the update does not answer.
      void client.invalidateQueries({ queryKey: ['object', 'view'] });
      void client.invalidateQueries({ queryKey: objectKeys.lists });
    },
    conflictKept: (fields) => t('objects.edit.conflictKept', { fields: fields.join(', ') }),
    fieldLabel: (name) => fieldLabel(t, name),
    onStatus,
  });

  const set = (name: string, v: Draft) =>
    setDrafts((f) => {
      const next = { ...f, [name]: v };
      // A subtype belongs to one type: changing the type drops a subtype of another type.
      if (name === 'subTypeObjectTypeId') {
        const sub = f.objectSubTypeId;
        const fits = optionsFor({ name: 'objectSubTypeId', type: 'select', group: 'main', list: 'objectSubTypes' }, lists, v).some((o) => String(o.value) === sub);
        if (!fits) next.objectSubTypeId = null;
      }
      return next;
    });

  const f: DescribedForm = { drafts, set, errors: fieldErrors, yoursReplaced };
  const field = (d: TFieldDescription) => (
    <DescribedInput
      key={d.name}
      d={d}
      f={f}
      label={fieldLabel(t, d.name)}
      options={optionsFor(d, lists, d.list === 'objectSubTypes' ? drafts.subTypeObjectTypeId : undefined)}
      testId={`field-${d.name}`}
      loadOptions={d.type === 'location' ? loadLocationOptions : undefined}
      valueText={d.type === 'location' ? record.location || undefined : undefined}
    />
  );

  const visible = (g: TObjectGroup) => formFieldsOf(g, expanded);
  const groupBody = (g: TObjectGroup) => <GroupFields fields={visible(g)} field={field} value={(name) => drafts[name]} onChange={set} testId={`features-${g}`} />;

  // How far the form is filled in, section by section: every described field but the on/off switches
  // (they always hold a value); a yes/no feature counts once said either way.
  const progress = OBJECT_FORM_SECTIONS.map((sec) => {
    const fields = sec.groups.flatMap(visible).filter((d) => d.type !== 'boolean');
    return { key: sec.key, total: fields.length, filled: fields.filter((d) => isFilled(drafts[d.name])).length };
  });

  const onMapChange = useMapEdit(drafts, setDrafts, lists);

  // The publishing has answered: its outcome joins the record (they are the system's fields, not the form's).
  const onPublishSettled = useCallback(
    (p: TObjectPublishState) => {
      setRecord((r) => ({ ...r, published: p.published, publishError: p.publishError }));
      void client.invalidateQueries({ queryKey: ['object', 'view'] });
    },
    [client, setRecord],
  );
  return (
    <Stack gap="sm" data-testid="object-editor" data-expanded={expanded ? 'true' : 'false'}>
      {saveError != null && <SaveFailed title={t('objects.edit.notSaved')} error={saveError} onRetry={() => setDrafts((f) => ({ ...f }))} />}

      <ProgressCard progress={progress} />

      {/* Who owns it and whether it is published: what an agent checks first, at the top. */}
      <ContactsEditor objectId={id} links={initial.objectAccounts} relations={initial.objectAccountRelationSelectList} />
      <ServiceInfo record={record} id={id} onPublishSettled={onPublishSettled} />

      {OBJECT_FORM_SECTIONS.map((s) => (
        <Section key={s.key} title={t(`objects.section.${s.key}`)} testId={`edit-${s.key}`}>
          {s.groups.map((g, i) =>
            visible(g).length === 0 ? null : (
              <Stack key={g} gap={6} mt={i === 0 ? 0 : 'sm'}>
                {i > 0 || (s.groups.length > 1 && g !== s.key) ? (
                  <Text size="sm" fw={600} c="dimmed">
                    {groupTitle(t, g)}
                  </Text>
                ) : null}
                {groupBody(g)}
              </Stack>
            ),
          )}
        </Section>
      ))}

      <PhotosSection objectId={id} />

      <Section title={t('objects.section.map')} testId="edit-map">
        <ObjectMap
          mode="edit"
          value={mapValueOf(toWires(drafts, lists))}
          onChange={onMapChange}
          label={t('objects.section.map')}
          testId="object-map-editor"
        />
        {MAP_FIELDS.filter((d) => fieldErrors[d.name]).map((d) => (
          <Text key={d.name} size="sm" c="red.8" mt={4} data-testid={`error-${d.name}`}>
            {fieldLabel(t, d.name)}: {fieldErrors[d.name]}
          </Text>
        ))}
      </Section>

    </Stack>
  );
}

/** A draft that holds a value: a text typed, a choice made, a yes/no said. */
const isFilled = (v: Draft | undefined) => (Array.isArray(v) ? v.some((x) => x != null && x !== '') : v != null && v !== '' && v !== 'null');

/** The publishing and the record's own marks and stamps. */
function ServiceInfo({ record, id, onPublishSettled }: { record: TRealtyObject; id: number; onPublishSettled: (p: TObjectPublishState) => void }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={groupTitle(t, 'service')} testId="service-info">
      <Stack gap={6}>
        <PublishStatus
          id={id}
          referenceNumber={record.referenceNumber}
          publishRequested={record.publishRequested === true}
          published={record.published}
          publishError={record.publishError}
          onSettled={onPublishSettled}
        />
        <MandateInForce objectId={id} />
        <Group gap={6}>
          {(['published', 'rented', 'sold', 'hasKey'] as const)
            .filter((k) => (k === 'published' ? shownPublished(record) : record[k] === true))
            .map((k) => (
              <Badge key={k} variant="light" tt="none">
                {fieldLabel(t, k)}
              </Badge>
            ))}
        </Group>
        <Text size="sm" data-testid="modified-stamp">
          {t('objects.col.modifiedOn')}: {formatDateTime(record.modifiedOn)} · {record.modifiedBy ?? '—'}
        </Text>
        <Text size="sm" data-testid="created-stamp">
          {t('objects.col.createdOn')}: {formatDateTime(record.createdOn)} · {record.createdBy ?? '—'}
        </Text>
      </Stack>
    </SectionCard>
  );
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <SectionCard title={title} testId={testId} id={testId} style={{ scrollMarginTop: 64 }}>
      {children}
    </SectionCard>
  );
}

/** How far the form is filled in: the count, a bar, and each section's count as a link to it. */
function ProgressCard({ progress }: { progress: { key: string; total: number; filled: number }[] }) {
  const { t } = useTranslation();
  const filled = progress.reduce((n, p) => n + p.filled, 0);
  const total = progress.reduce((n, p) => n + p.total, 0);
  return (
    <Card withBorder padding="sm" data-testid="edit-progress">
      <Text size="sm" fw={600} data-testid="edit-progress-text">
        {t('objects.edit.progress', { filled, total })}
      </Text>
      <Progress.Root size="sm" mt={6}>
        <Progress.Section value={total ? (100 * filled) / total : 0} aria-label={t('objects.edit.progressLabel')} />
      </Progress.Root>
      <Group gap="md" mt="xs">
        {progress.map((p) => (
          <Anchor
            key={p.key}
            href={`#edit-${p.key}`}
            size="sm"
            onClick={(e) => {
              e.preventDefault();
              document.getElementById(`edit-${p.key}`)?.scrollIntoView({ block: 'start' });
            }}
            data-testid={`edit-progress-${p.key}`}
          >
            {t(`objects.section.${p.key}`)} {p.filled}/{p.total}
          </Anchor>
        ))}
      </Group>
    </Card>
  );
}

/** A group's fields: the inputs in a grid, the switches in their own, the yes/no features as one checklist, long texts last. */
function GroupFields({ fields, field, value, onChange, testId }: { fields: TFieldDescription[]; field: (d: TFieldDescription) => ReactNode; value: (name: string) => Draft | undefined; onChange: (name: string, v: Draft) => void; testId: string }) {
  const { t } = useTranslation();
  const plain = fields.filter((d) => d.type !== 'textarea' && d.type !== 'boolNullable' && d.type !== 'boolean');
  const switches = fields.filter((d) => d.type === 'boolean');
  const features = fields.filter((d) => d.type === 'boolNullable');
  const long = fields.filter((d) => d.type === 'textarea');
  return (
    <Stack gap="sm">
      {plain.length > 0 && (
        <FieldGrid>{plain.map(field)}</FieldGrid>
      )}
      {switches.length > 0 && (
        <FieldGrid verticalSpacing={6}>{switches.map(field)}</FieldGrid>
      )}
      {features.length > 0 && (
        <FeatureChecklist fields={features} value={value} onChange={onChange} label={(name) => fieldLabel(t, name)} testId={testId} />
      )}
      {long.map(field)}
    </Stack>
  );
}

/** The map's change of the place as the form's map fields. */
function useMapEdit(drafts: Drafts, setDrafts: (f: (d: Drafts) => Drafts) => void, lists: TObjectSelectLists) {
  // The map also reports its zoom when it fits itself to the point or circle: a zoom alone is not
  // an edit (it would save on every opening); it is kept and saved with the next change of the place.
  const zoomOnly = useRef<number | null>(null);
  return (v: TMapValue) => {
    const now = mapValueOf(toWires(drafts, lists));
    const onlyZoom = (Object.keys(now) as (keyof TMapValue)[]).every((k) => k === 'mapZoom' || now[k] === v[k]);
    if (onlyZoom) {
      zoomOnly.current = v.mapZoom;
      return;
    }
    const next = { ...v, mapZoom: zoomOnly.current ?? v.mapZoom };
    zoomOnly.current = null;
    setDrafts((f) => ({ ...f, ...Object.fromEntries(MAP_FIELDS.map((d) => [d.name, toDraft(d.type, next[d.name as keyof TMapValue])])) }));
  };
}
