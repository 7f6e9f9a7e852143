import { Anchor, Card, Grid, Group, Select, Table, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { VIEWING_COMMENT_MAX } from '@crm/contract/constants';
import { LEAD, OBJECT, href } from '@crm/contract/resources';
import { DateField } from '../../../components/fields/date-field.tsx';
import { TimeField } from '../../../components/fields/time-field.tsx';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import type { Mode } from '../../../kit/record.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { searchEmployees, searchLeadsQuick, searchObjectsByRef } from '../../../lib/pickers.ts';
import type { TViewingAnswer } from '../api/viewings.ts';
import { join, type Form } from './viewing-form-model.ts';
import { ObjectPlace, ViewingClient } from './viewing-on-site.tsx';
import { RemoveButton } from '../../../components/remove-button.tsx';
import { ShownValue } from '../../../kit/field-group.tsx';

/** What the viewing form's parts share: the form, its errors, and what picking a lead or a property does. */
export type ViewingFormParts = {
  viewing: TViewingAnswer;
  mode: Mode;
  form: Form;
  set: (patch: Partial<Form>) => void;
  setForm: Dispatch<SetStateAction<Form>>;
  errors: Record<string, string>;
  readOnly: boolean;
  pickLead: (v: Picked) => void;
  addObject: (v: Picked) => void;
};

/** A date and time: read in view mode, a day and an hour otherwise. */
function DateTime({ p, label, which, field, testId }: { p: ViewingFormParts; label: string; which: 'created' | 'viewing'; field: string; testId: string }) {
  const { t } = useTranslation();
  const date = which === 'created' ? p.form.createdDate : p.form.viewingDate;
  const time = which === 'created' ? p.form.createdTime : p.form.viewingTime;
  if (p.readOnly)
    return (
      <ShownValue label={label} testId={testId}>
        {formatDateTime(join(date, time)) || t('viewings.ui.notSet')}
      </ShownValue>
    );
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <DateField label={label} value={date} onChange={(v) => p.set(which === 'created' ? { createdDate: v } : { viewingDate: v })} error={p.errors[field]} data-testid={`${testId}-date`} style={{ flex: 1 }} />
      <TimeField label={t('viewings.ui.time')} value={time} onChange={(v) => p.set(which === 'created' ? { createdTime: v } : { viewingTime: v })} w={110} data-testid={`${testId}-time`} />
    </Group>
  );
}

/** When the viewing was arranged and is, for which lead, by whom (when made), and the client. */
export function ViewingWhenCard({ p }: { p: ViewingFormParts }) {
  const { t } = useTranslation();
  const { form, readOnly } = p;
  return (
    <Card withBorder padding="sm">
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <DateTime p={p} label={t('viewings.ui.appointmentCreated')} which="created" field="appointmentCreated" testId="viewing-created" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <DateTime p={p} label={t('viewings.ui.dateOfViewing')} which="viewing" field="dateOfViewing" testId="viewing-date" />
        </Grid.Col>
        {/* Possible (a viewing recorded afterwards, with the day it was arranged), but usually a date typed wrong. */}
        {!readOnly && form.viewingDate && form.createdDate && form.viewingDate < form.createdDate && (
          <Grid.Col span={12}>
            <Text size="sm" c="red.8" data-testid="viewing-before-arranged">
              {t('viewings.ui.beforeArranged')}
            </Text>
          </Grid.Col>
        )}
        <Grid.Col span={12}>
          {readOnly ? (
            <div>
              <Text size="xs" c="dimmed">
                {t('viewings.ui.lead')}
              </Text>
              {form.demand ? (
                <Anchor component={Link} to={href(LEAD.screens.view, { id: form.demand.id })} data-testid="viewing-lead">
                  {form.demand.text}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed" data-testid="viewing-lead">
                  {t('viewings.ui.notSet')}
                </Text>
              )}
            </div>
          ) : (
            <SearchPicker label={t('viewings.ui.lead')} value={form.demand} onChange={p.pickLead} search={searchLeadsQuick} queryKey="lead" testId="viewing-lead-picker" error={p.errors.demandId} />
          )}
        </Grid.Col>
        {p.mode === 'create' && (
          <Grid.Col span={12}>
            <SearchPicker label={t('viewings.ui.agent')} value={form.agent} onChange={(v) => p.set({ agent: v })} search={searchEmployees} queryKey="employee" testId="viewing-agent-picker" error={p.errors.assignedTo} />
          </Grid.Col>
        )}
        {readOnly && p.viewing.client && (
          <Grid.Col span={12}>
            <ViewingClient client={p.viewing.client} viewingId={p.viewing.id || undefined} />
          </Grid.Col>
        )}
      </Grid>
    </Card>
  );
}

/** The properties shown: each with its result and the client's comment, and the search that adds one. */
export function ViewingObjectsCard({ p }: { p: ViewingFormParts }) {
  const { t } = useTranslation();
  const { form, readOnly, set } = p;
  const options = p.viewing.resultOptions;
  // Where each property is and who has its keys, as the server read them with the viewing.
  const places = new Map(p.viewing.results.map((r) => [r.objectId, r]));
  // Viewed, the comments' column is there when there is a comment to read.
  const showComments = !readOnly || form.results.some((r) => r.comment.trim());
  return (
    <SectionCard title={t('viewings.ui.objects')} testId="viewing-objects" empty={form.results.length === 0 && t('viewings.ui.noObjects')}>
      {form.results.length > 0 && (
        // On a phone, a row stacks (viewings.css): the property on its own line, its result across
        // the card's width below it (with Remove beside it when edited), then the comment.
        <Table className={readOnly ? 'viewing-objects-view' : 'viewing-objects-edit'}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('viewings.ui.object')}</Table.Th>
              <Table.Th>{t('viewings.ui.col.result')}</Table.Th>
              {showComments && <Table.Th w="36%">{t('viewings.ui.col.comment')}</Table.Th>}
              {/* The column holds only the remove buttons (each named): its title is for screen readers, and leaves the room to the object and its result on a phone. */}
              {!readOnly && (
                <Table.Th w={44}>
                  <VisuallyHidden>{t('viewings.ui.remove')}</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {form.results.map((r, i) => (
              <Table.Tr key={r.objectId} data-testid="viewing-object">
                <Table.Td>
                  <Anchor component={Link} to={href(OBJECT.screens.view, { id: r.objectId })}>
                    #{r.objectReferenceNumber}
                    {r.title ? ` · ${r.title}` : ''}
                  </Anchor>
                  {readOnly && places.has(r.objectId) && <ObjectPlace {...places.get(r.objectId)!} />}
                </Table.Td>
                <Table.Td className="viewing-object-result-cell">
                  {readOnly ? (
                    (options.find((o) => Number(o.value) === r.result)?.text ?? '')
                  ) : (
                    <Select
                      aria-label={t('viewings.ui.resultFor', { ref: r.objectReferenceNumber })}
                      data={options.map((o) => ({ value: String(o.value), label: o.text }))}
                      value={r.result != null ? String(r.result) : null}
                      onChange={(v) => set({ results: form.results.map((x, j) => (j === i ? { ...x, result: v ? Number(v) : null } : x)) })}
                      comboboxProps={{ withinPortal: true, width: 'max-content', position: 'bottom-end' }}
                      miw={128}
                      // Tapping the chosen result again keeps it: a viewing's result is changed, not cleared.
                      allowDeselect={false}
                      data-testid="viewing-object-result"
                    />
                  )}
                </Table.Td>
                {showComments && (
                  <Table.Td className="viewing-object-comment-cell">
                    {readOnly ? (
                      r.comment && (
                        <Text size="sm" className="viewing-object-comment" data-testid="viewing-object-comment-text">
                          {r.comment}
                        </Text>
                      )
                    ) : (
                      <Textarea
                        aria-label={t('viewings.ui.commentFor', { ref: r.objectReferenceNumber })}
                        placeholder={t('viewings.ui.commentPlaceholder')}
                        value={r.comment}
                        onChange={(e) => {
                          const comment = e.currentTarget.value;
                          p.setForm((f) => ({ ...f, results: f.results.map((x) => (x.objectId === r.objectId ? { ...x, comment } : x)) }));
                        }}
                        autosize
                        minRows={1}
                        maxRows={6}
                        maxLength={VIEWING_COMMENT_MAX}
                        data-testid="viewing-object-comment"
                      />
                    )}
                  </Table.Td>
                )}
                {!readOnly && (
                  <Table.Td className="viewing-object-remove-cell">
                    <RemoveButton label={t('viewings.ui.removeOne', { ref: r.objectReferenceNumber })} onClick={() => set({ results: form.results.filter((_, j) => j !== i) })} />
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {!readOnly && (
        <SearchPicker
          key={form.results.length}
          label={t('viewings.ui.addObject')}
          placeholder={t('leads.ui.objects.addPlaceholder')}
          value={null}
          onChange={p.addObject}
          search={searchObjectsByRef}
          queryKey="object"
          testId="viewing-object-search"
        />
      )}
    </SectionCard>
  );
}
