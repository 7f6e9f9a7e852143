import { ActionIcon, Anchor, Card, Grid, Group, Select, Stack, Table, Text, Textarea, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TSelectOption } from '@crm/contract';
import { VIEWING_COMMENT_MAX } from '@crm/contract/constants';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { keyedByAddress } from '../../../components/keyed-by-address.tsx';
import { RecordToolbar } from '../../../components/record-toolbar.tsx';
import { ActivityList } from '../../../components/activity-list-lazy.tsx';
import { Assignments } from '../../../components/assignments.tsx';
import { useRecordOpened } from '../../../lib/recent.ts';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import { TimeField } from '../../../components/fields/time-field.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { IconTrash } from '../../../components/icons.ts';
import { JUST_READ_MS } from '../../../lib/freshness.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { useGoBack } from '../../../components/go-back.ts';
import { blankViewingQuery, deleteViewing, saveViewing, viewingKeys, viewingQuery, type TViewingAnswer } from '../api/viewings.ts';
import { searchEmployees, searchLeadsQuick, searchObjectsByRef } from '../../../lib/pickers.ts';
import { mergeOnConflict, mergeRowsOnConflict } from '../../../lib/conflict-merge.ts';
import { RecordLoad, isGone, saveRecord, useDeleteRecord, useRecordAddress, useRecordForm, type Mode } from '../../../kit/record.tsx';
import { ObjectPlace, PrintSheetLink, ViewingClient } from '../components/viewing-on-site.tsx';
import { ENTITY_VIEWING, join, toForm, type Row } from '../components/viewing-form-model.ts';
import './viewings.css';
import { LEAD, OBJECT, VIEWING, href } from '@crm/contract/resources';

/** /Viewing/Add (create; ?demandId= starts from a lead), /Viewing/{id} (view), /Viewing/Edit/{id} (edit). */
export const ViewingPage = keyedByAddress(ViewingPageScreen);

function ViewingPageScreen() {
  const { id, mode, valid, search } = useRecordAddress('/viewing/edit');
  const demandId = Number(search.get('demandId')) || null;
  const blank = useQuery({ ...blankViewingQuery(demandId), enabled: id == null });
  const stored = useQuery({ ...viewingQuery(id ?? 0), enabled: id != null && valid, staleTime: mode === 'view' ? JUST_READ_MS : 0 });
  const q = id == null ? blank : stored;
  const v = id == null ? undefined : stored.data;
  useRecordOpened('viewing', id ?? 0, v ? [`#${v.viewingNumber || id}`, v.demand ?? ''].filter(Boolean).join(' · ') : null, isGone(q));
  return (
    <RecordLoad q={q} valid={valid} mode={mode} testId="viewing">
      {(data) => <ViewingForm key={`${mode}-${data.id}-${data.version}`} viewing={data} mode={mode} />}
    </RecordLoad>
  );
}

function ViewingForm({ viewing, mode }: { viewing: TViewingAnswer; mode: Mode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const client = useQueryClient();
  const rf = useRecordForm({ record: viewing, mode, carryKey: `viewing-${viewing.id}`, toForm });
  const { form, setForm, set, loaded, leaveGuard, busy, errors, setErrors, error, setError, readOnly } = rf;
  const options: TSelectOption[] = viewing.resultOptions;
  // The properties that came with the lead (its offered ones), not yet given a result: a different
  // lead picked takes them away again, while properties added by hand, or already given a result,
  // stay. A new viewing started from a lead (?demandId=) begins with that lead's.
  const fromLead = useRef<Set<number>>(new Set(mode === 'create' && viewing.demandId != null ? viewing.results.map((r) => r.objectId) : []));

  /** The lead picked or changed: its offered properties join the list, as when started from the lead. */
  const pickLead = async (v: Picked) => {
    const previous = fromLead.current;
    fromLead.current = new Set();
    // One with a comment typed stays too: what the client said is not dropped with the lead.
    setForm((f) => ({ ...f, demand: v, results: f.results.filter((r) => !(previous.has(r.objectId) && r.result === 1 && !r.comment.trim())) }));
    if (!v) return;
    let offered: Row[];
    try {
      offered = toForm(await client.fetchQuery(blankViewingQuery(v.id))).results;
    } catch {
      return; // The lead stays picked; its properties can be added by hand.
    }
    setForm((f) => {
      if (f.demand?.id !== v.id) return f; // another lead was picked meanwhile
      const added = offered.filter((o) => !f.results.some((r) => r.objectId === o.objectId));
      fromLead.current = new Set(added.map((o) => o.objectId));
      return { ...f, results: [...f.results, ...added] };
    });
  };

  const save = async () => {
    // A day without a time would be saved as midnight: ask for the time instead.
    if (form.viewingDate && !form.viewingTime && !focusInvalidEntry()) {
      setErrors({ dateOfViewing: t('viewings.ui.timeRequired') });
      return;
    }
    let lostRows: string[] = [];
    await saveRecord(
      rf,
      {
        body: () => ({
          ...(viewing.id != null ? { id: viewing.id, version: viewing.version } : {}),
          appointmentCreated: join(form.createdDate, form.createdTime),
          dateOfViewing: join(form.viewingDate, form.viewingTime),
          demandId: form.demand?.id ?? null,
          results: form.results.map((r) => ({ objectId: r.objectId, result: r.result, comment: r.comment.trim() || null })),
          ...(mode === 'create' ? { assignedTo: form.agent?.id ?? null } : {}),
        }),
        // Saved again after a lost answer, the same content is the same change: no second viewing.
        send: saveViewing,
        saved: (saved) => {
          client.setQueryData(viewingKeys.one(saved.id!), saved);
          void client.invalidateQueries({ queryKey: viewingKeys.lists });
          void client.invalidateQueries({ queryKey: viewingKeys.calendar });
          // The comments and results show on the properties' pages and on the lead's.
          void client.invalidateQueries({ queryKey: viewingKeys.ofLead });
          void client.invalidateQueries({ queryKey: ['object'] });
          // A viewing arranged for a new lead moves it to Viewings: its page and the lists say so.
          if (form.demand != null) void client.invalidateQueries({ queryKey: ['lead'] });
          return { to: href(VIEWING.screens.view, { id: saved.id! }), replace: mode === 'create', banner: ['success', t('viewings.ui.saved')] };
        },
        conflict: {
          current: (c) => c as TViewingAnswer,
          store: (current) => client.setQueryData(viewingKeys.one(current.id!), { ...current, resultOptions: options }),
          merge: (current) => {
            const theirs = toForm(current);
            const flat = mergeOnConflict({ ...loaded, results: [] }, { ...form, results: [] }, { ...theirs, results: [] });
            // The properties row by row: a comment typed on one survives their result on another.
            const rows = mergeRowsOnConflict(loaded.results, form.results, theirs.results, (r) => r.objectId, (r) => `#${r.objectReferenceNumber}`);
            lostRows = rows.lost;
            return {
              next: { ...flat.next, results: rows.rows },
              changed: [...flat.changed, ...(rows.changed || rows.lost.length ? ['results'] : [])],
              lost: [...flat.lost, ...(rows.lost.length ? ['results'] : [])],
              kept: flat.changed.length > flat.lost.length || rows.changed,
            };
          },
          label: (k) =>
            k === 'demand'
              ? t('viewings.ui.lead')
              : k === 'results'
                ? `${t('viewings.ui.objects')}${lostRows.length ? ` (${lostRows.join(', ')})` : ''}`
                : k.startsWith('created')
                  ? t('viewings.ui.appointmentCreated')
                  : t('viewings.ui.dateOfViewing'),
        },
      },
      t,
      navigate,
    );
  };

  const confirmDelete = useDeleteRecord();
  const remove = () =>
    confirmDelete({
      title: t('viewings.ui.deleteTitle'),
      text: t('viewings.ui.deleteConfirm'),
      run: async () => {
        await deleteViewing(viewing.id!);
        void client.invalidateQueries({ queryKey: viewingKeys.all });
      },
      done: { banner: ['success', t('viewings.ui.deleted')], to: '/Viewing' },
      onError: setError,
      release: leaveGuard.release,
    });

  const addObject = (p: Picked) => {
    if (!p) return;
    if (form.results.some((r) => r.objectId === p.id)) {
      setError(t('leads.objectAlreadyInList'));
      return;
    }
    fromLead.current.delete(p.id); // added by hand: it stays whichever lead is picked
    const ref = /^#(\S+)/.exec(p.text)?.[1] ?? '';
    set({ results: [...form.results, { objectId: p.id, objectReferenceNumber: ref, title: p.text.replace(/^#\S+\s*(·\s*)?/, ''), result: 1, comment: '' }] });
    setError(null);
  };

  // Where each property is and who has its keys, as the server read them with the viewing.
  const places = new Map(viewing.results.map((r) => [r.objectId, r]));
  // Viewed, the comments' column is there when there is a comment to read.
  const showComments = !readOnly || form.results.some((r) => r.comment.trim());

  const dateTime = (label: string, date: string | null, time: string, onDate: (v: string | null) => void, onTime: (v: string) => void, field: string, testId: string) =>
    readOnly ? (
      <div>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text size="sm" data-testid={testId}>
          {formatDateTime(join(date, time)) || t('viewings.ui.notSet')}
        </Text>
      </div>
    ) : (
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <DateField label={label} value={date} onChange={onDate} error={errors[field]} data-testid={`${testId}-date`} style={{ flex: 1 }} />
        <TimeField label={t('viewings.ui.time')} value={time} onChange={onTime} w={110} data-testid={`${testId}-time`} />
      </Group>
    );

  return (
    <Stack gap="sm" data-testid="viewing-page" data-mode={mode}>
      <RecordToolbar
        title={
          <Title order={2} size="h3">
            {mode === 'create' ? t('viewings.ui.new') : t('viewings.ui.title', { id: viewing.id })}
          </Title>
        }
        mode={mode}
        backText={t('viewings.ui.back')}
        onBack={goBack}
        route="/Viewing"
        id={viewing.id}
        onDelete={remove}
        onSave={() => void save()}
        busy={busy}
        error={error}
        testId="viewing"
        viewActions={viewing.id != null && <PrintSheetLink id={viewing.id} />}
      />
      <Card withBorder padding="sm">
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, md: 6 }}>
            {dateTime(
              t('viewings.ui.appointmentCreated'),
              form.createdDate,
              form.createdTime,
              (v) => set({ createdDate: v }),
              (v) => set({ createdTime: v }),
              'appointmentCreated',
              'viewing-created',
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            {dateTime(
              t('viewings.ui.dateOfViewing'),
              form.viewingDate,
              form.viewingTime,
              (v) => set({ viewingDate: v }),
              (v) => set({ viewingTime: v }),
              'dateOfViewing',
              'viewing-date',
            )}
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
              <SearchPicker
                label={t('viewings.ui.lead')}
                value={form.demand}
                onChange={(v) => void pickLead(v)}
                search={searchLeadsQuick}
                queryKey="lead"
                testId="viewing-lead-picker"
                error={errors.demandId}
              />
            )}
          </Grid.Col>
          {mode === 'create' && (
            <Grid.Col span={12}>
              <SearchPicker label={t('viewings.ui.agent')} value={form.agent} onChange={(v) => set({ agent: v })} search={searchEmployees} queryKey="employee" testId="viewing-agent-picker" error={errors.assignedTo} />
            </Grid.Col>
          )}
          {readOnly && viewing.client && (
            <Grid.Col span={12}>
              <ViewingClient client={viewing.client} />
            </Grid.Col>
          )}
        </Grid>
      </Card>
      <Card withBorder padding="sm" data-testid="viewing-objects">
        <Title order={3} size="h5" mb="xs">
          {t('viewings.ui.objects')}
        </Title>
        {form.results.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('viewings.ui.noObjects')}
          </Text>
        )}
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
                            setForm((f) => ({ ...f, results: f.results.map((x) => (x.objectId === r.objectId ? { ...x, comment } : x)) }));
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
                      <ActionIcon variant="subtle" color="red" aria-label={t('viewings.ui.removeOne', { ref: r.objectReferenceNumber })} onClick={() => set({ results: form.results.filter((_, j) => j !== i) })}>
                        <IconTrash size={16} />
                      </ActionIcon>
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
            onChange={addObject}
            search={searchObjectsByRef}
            queryKey="object"
            testId="viewing-object-search"
          />
        )}
      </Card>
      {mode !== 'create' && viewing.id != null && (
        <>
          <Assignments parent="viewing" parentId={viewing.id} editable />
          <RecordStamps createdOn={viewing.createdOn} createdBy={viewing.createdByAccountDisplayName} modifiedOn={viewing.modifiedOn} modifiedBy={viewing.modifiedByAccountDisplayName} testId="viewing-stamps" />
        </>
      )}
      {mode === 'view' && viewing.id != null && <ActivityList entityType={ENTITY_VIEWING} id={viewing.id} editable />}
    </Stack>
  );
}
