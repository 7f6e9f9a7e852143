import { ActionIcon, Alert, Anchor, Button, Card, Grid, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TSelectOption } from '@crm/contract';
import {
  DEAL_FIELDS,
  DEAL_GROUPS,
  DEAL_RENTAL_ONLY,
  DEAL_SALE_ONLY,
  DEAL_STAGE_CLOSED,
  DEAL_TYPE_RENTAL,
  DEAL_TYPE_SALE,
  dealTextKey,
  type TDealFieldDescription,
} from '@crm/contract/deal-fields';
import { keyedByAddress } from '../../../components/keyed-by-address.tsx';
import { RecordToolbar } from '../../../components/record-toolbar.tsx';
import { ActivityList } from '../../../components/activity-list-lazy.tsx';
import { FieldInput } from '../../../components/fields/field-input.tsx';
import { formatFieldValue, toDraft, toWire, type Draft } from '../../../components/fields/field-values.ts';
import { useRecordOpened } from '../../../lib/recent.ts';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import { IconPlus, IconTrash } from '../../../components/icons.ts';
import { JUST_READ_MS } from '../../../lib/freshness.ts';
import { useGoBack } from '../../../components/go-back.ts';
import { blankDealQuery, dealKeys, dealOnDelete, dealQuery, dealsOfQuery, deleteDeal, saveDeal, savedBanner, type TDealAnswer } from '../api/deals.ts';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { objectKeys } from '../../../lib/query-keys.ts';
import './deals.css';
import { mergeOnConflict, mergeRowsOnConflict } from '../../../lib/conflict-merge.ts';
import { partyRelationText } from '../party-relation.ts';
import { depositCheck } from '../deposit-check.ts';
import { searchAccounts, searchLeadsQuick, searchObjectsByRef } from '../../../lib/pickers.ts';
import { RecordLoad, isGone, saveRecord, useDeleteRecord, useRecordAddress, useRecordForm, type Mode } from '../../../kit/record.tsx';
import { ACCOUNT, DEAL, LEAD, OBJECT, href } from '@crm/contract/resources';

/** Activities link to a deal with link kind 5. */
const ENTITY_DEAL = 5;

type PartyRow = { key: number; account: Picked; relation: number };
type Form = { values: Record<string, Draft>; object: Picked; demand: Picked; parties: PartyRow[] };

let nextKey = 1;
const typeOf = (values: Record<string, Draft>) => Number(values.dealType);
/** Fields of the other deal type are not shown (spec: rent dates for rentals, contract duration for sales). */
const shown = (d: TDealFieldDescription, dealType: number) =>
  dealType === DEAL_TYPE_RENTAL ? !(DEAL_SALE_ONLY as readonly string[]).includes(d.name) : !(DEAL_RENTAL_ONLY as readonly string[]).includes(d.name);
/** The values with the other deal type's fields cleared (as the server does when the type changes). */
const onlyTypeFields = (values: Record<string, Draft>) => {
  const out = { ...values };
  for (const d of DEAL_FIELDS) if (!shown(d, typeOf(out))) out[d.name] = toDraft(d.type, null);
  return out;
};

function toForm(d: TDealAnswer): Form {
  return {
    values: Object.fromEntries(DEAL_FIELDS.map((f) => [f.name, toDraft(f.type, (d as Record<string, unknown>)[f.name])])),
    object: d.objectId ? { id: d.objectId, text: `#${d.objectReferenceNumber ?? d.objectId}${d.objectTitle ? ` ${d.objectTitle}` : ''}` } : null,
    demand: d.demandId ? { id: d.demandId, text: d.demand ?? `#${d.demandId}` } : null,
    parties: d.accounts.map((p) => ({ key: nextKey++, account: { id: p.accountId, text: p.account }, relation: p.relation })),
  };
}

/** /Deals/Add and /Deads/Add (create; ?objectId= or ?demandId= starts from an object or a lead), /Deals/{id} (view), /Deals/Edit/{id} (edit). */
export const DealPage = keyedByAddress(DealPageScreen);

function DealPageScreen() {
  const { id, mode, valid, search } = useRecordAddress('/deals/edit');
  const from = { objectId: Number(search.get('objectId')) || null, demandId: Number(search.get('demandId')) || null };
  const blank = useQuery({ ...blankDealQuery(from), enabled: id == null });
  const stored = useQuery({ ...dealQuery(id ?? 0), enabled: id != null && valid, staleTime: mode === 'view' ? JUST_READ_MS : 0 });
  const q = id == null ? blank : stored;
  const d = id == null ? undefined : stored.data;
  useRecordOpened('deal', id ?? 0, d ? [`#${id}`, d.objectReferenceNumber ? `#${d.objectReferenceNumber}` : '', d.objectTitle ?? ''].filter(Boolean).join(' · ') : null, isGone(q));
  return (
    <RecordLoad q={q} valid={valid} mode={mode} testId="deal">
      {(data) => <DealForm key={`${mode}-${data.id}-${data.version}`} deal={data} mode={mode} />}
    </RecordLoad>
  );
}

function Shown({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * A sale of a property another deal has already sold (closed): said under the property, with links
 * to those deals. A resale is possible, a slip (the wrong property picked) more likely.
 */
function SoldAlready({ objectId, dealId }: { objectId: number | null; dealId: number | null }) {
  const { t } = useTranslation();
  const q = useQuery({ ...dealsOfQuery({ objectId: objectId ?? 0 }), enabled: objectId != null });
  const sold = objectId == null ? [] : (q.data?.items ?? []).filter((d) => d.id !== dealId && d.dealStage === DEAL_STAGE_CLOSED && d.dealType === DEAL_TYPE_SALE);
  if (!sold.length) return null;
  return (
    <Alert color="yellow" mt="xs" p="xs" data-testid="deal-sold-already">
      <Text size="sm">
        {t('deals.ui.soldAlready')}{' '}
        {sold.map((d, i) => (
          <Fragment key={d.id}>
            {i > 0 && ', '}
            <Anchor component={Link} to={href(DEAL.screens.view, { id: d.id })}>
              #{d.id}
            </Anchor>
          </Fragment>
        ))}
      </Text>
    </Alert>
  );
}

function DealForm({ deal, mode }: { deal: TDealAnswer; mode: Mode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const client = useQueryClient();
  const rf = useRecordForm({ record: deal, mode, carryKey: `deal-${deal.id}`, toForm });
  const { form, setForm, set, loaded, leaveGuard, busy, setBusy, errors, error, setError, readOnly } = rf;
  const dealType = typeOf(form.values);
  // The deposit is a sale's earnest money and a rental's security deposit: its field, its date and
  // the stage it is paid in are named by the type chosen.
  const lists: Record<string, TSelectOption[]> = {
    dealTypeOptions: deal.dealTypeOptions,
    dealStageOptions: deal.dealStageOptions.map((o) => ({ ...o, text: t(dealTextKey(`deals.stage.${o.value}`, dealType), { defaultValue: o.text }) })),
  };
  const fieldLabel = (name: string) => t(dealTextKey(`fields.deal.${name}`, dealType));
  const relations = deal.dealAccountRelationOptions;
  const setValue = (name: string, v: Draft) =>
    setForm((f) => {
      const values = { ...f.values, [name]: v };
      // Another type: its own fields only.
      return { ...f, values: name === 'dealType' ? onlyTypeFields(values) : values };
    });

  /**
   * A lead picked: its client joins the parties as buyer, the deal takes the lead's kind (a rental
   * for a lead that wants to rent) while no price is typed, and when the deal has no property yet,
   * the property the lead is about (the one it made an offer on, or its only one offered for that
   * kind) with that property's owners as sellers and its price as asking. Nothing typed is replaced.
   */
  const pickLead = async (v: Picked) => {
    set({ demand: v });
    if (!v) return;
    let from: TDealAnswer;
    try {
      from = await client.fetchQuery(blankDealQuery({ objectId: null, demandId: v.id }));
    } catch {
      return; // The lead stays picked; the parties can be added by hand.
    }
    const suggested = toForm(from);
    setForm((f) => {
      if (f.demand?.id !== v.id) return f;
      const takeObject = f.object == null && suggested.object != null;
      const has = (p: PartyRow) => f.parties.some((q) => q.account?.id === p.account?.id && q.relation === p.relation);
      const added = suggested.parties.filter((p) => (takeObject || p.relation !== 1) && !has(p));
      let values = { ...f.values };
      const untyped = (n: string) => values[n] === '' || values[n] == null;
      // The lead's kind of deal (a rental for a lead that wants to rent), while no price is typed;
      // the other kind's fields are cleared, as choosing the type does.
      if (from.dealType !== typeOf(values) && untyped('askingPrice') && untyped('price')) values = onlyTypeFields({ ...values, dealType: suggested.values.dealType ?? null });
      // The property's price for this kind of deal (the sale price for a sale, the rent for a rental).
      // With it, the agency's commission on that price as the settings' fees give it, unless one is typed.
      if (takeObject && from.dealType === typeOf(values) && untyped('askingPrice')) {
        values.askingPrice = suggested.values.askingPrice ?? '';
        if (untyped('commission')) values.commission = suggested.values.commission ?? '';
      }
      return { ...f, values, object: takeObject ? suggested.object : f.object, parties: [...f.parties, ...added] };
    });
  };

  const save = () =>
    saveRecord(
      rf,
      {
        body: () => {
          const fields = Object.fromEntries(DEAL_FIELDS.map((d) => [d.name, shown(d, dealType) ? toWire(d.type, form.values[d.name] ?? null, d.list ? lists[d.list] : []) : null]));
          return {
            ...fields,
            ...(deal.id != null ? { id: deal.id, version: deal.version } : {}),
            objectId: form.object?.id ?? null,
            demandId: form.demand?.id ?? null,
            // Rows without an account are dropped (spec).
            accounts: form.parties.filter((p) => p.account).map((p) => ({ accountId: p.account!.id, relation: p.relation })),
          };
        },
        // Saved again after a lost answer, the same content is the same change: no second deal.
        send: saveDeal,
        saved: ({ notices, ...saved }) => {
          client.setQueryData(dealKeys.one(saved.id!), saved);
          void client.invalidateQueries({ queryKey: dealKeys.lists });
          void client.invalidateQueries({ queryKey: dealKeys.board });
          // A closed rental's tenant put on the property changes its contacts.
          if (notices.length) void client.invalidateQueries({ queryKey: objectKeys.all });
          // A deal made from a lead moves it on (Negotiating, or Won when closed): its page and the lists say so.
          if (form.demand != null) void client.invalidateQueries({ queryKey: ['lead'] });
          return { to: href(DEAL.screens.view, { id: saved.id! }), replace: mode === 'create', banner: savedBanner(t('deals.ui.saved'), notices) };
        },
        conflict: {
          current: (c) => c as TDealAnswer,
          store: (current) => client.setQueryData(dealKeys.one(current.id!), current),
          merge: (current) => {
            const theirs = toForm(current);
            const flat = (f: Form) => ({ ...f.values, object: f.object, demand: f.demand });
            const fields = mergeOnConflict(flat(loaded), flat(form), flat(theirs));
            // The parties party by party (an account in a role): a notary added here survives a lawyer
            // added there; a party removed here is removed from theirs. Rows still without an account
            // are this user's, kept as they are.
            const withAccount = (rows: PartyRow[]) => rows.filter((p) => p.account).map(({ account, relation }) => ({ account, relation }));
            const rows = mergeRowsOnConflict(withAccount(loaded.parties), withAccount(form.parties), withAccount(theirs.parties), (p) => `${p.account!.id}:${p.relation}`, (p) => p.account!.text);
            const parties: PartyRow[] = [...rows.rows.map((p) => ({ key: nextKey++, ...p })), ...form.parties.filter((p) => !p.account)];
            const { object, demand, ...values } = fields.next;
            return {
              next: { values: values as Record<string, Draft>, object: object as Picked, demand: demand as Picked, parties },
              changed: [...fields.changed, ...(rows.changed || rows.lost.length ? ['parties'] : [])],
              lost: [...fields.lost, ...(rows.lost.length ? ['parties'] : [])],
              kept: fields.changed.length > fields.lost.length || rows.changed,
            };
          },
          label: (k) => (k === 'object' ? t('deals.ui.object') : k === 'demand' ? t('deals.ui.lead') : k === 'parties' ? t('deals.ui.parties') : fieldLabel(k)),
        },
      },
      t,
      navigate,
    );

  const confirmDelete = useDeleteRecord();
  const remove = async () => {
    if (busy) return;
    // A tenant the deal put on a property goes with it, or stays (changed since, or not the deal's):
    // said before, as it stands when asked. The page may have been open while the tenancy was changed
    // in the property's Contacts (or by another deal); the delete goes by the stored one.
    setBusy(true);
    let onDelete = deal.onDelete;
    try {
      onDelete = await dealOnDelete(deal.id!);
    } catch {
      // Not read (offline, the deal gone): the page's reading; the delete itself says what it did.
    } finally {
      setBusy(false);
    }
    let notices: { kind: 'info' | 'warning'; text: string }[] = [];
    confirmDelete({
      title: t('deals.ui.deleteTitle'),
      text: t('deals.ui.deleteConfirm'),
      extra: (
        <Stack gap="xs" data-testid="deal-delete-confirm">
          <Text size="sm">{t('deals.ui.deleteConfirm')}</Text>
          {onDelete.map((n) => (
            <Text key={n.text} size="sm" c={n.kind === 'warning' ? 'orange.9' : undefined} data-testid="deal-delete-tenancy">
              {n.text}
            </Text>
          ))}
        </Stack>
      ),
      run: async () => {
        notices = (await deleteDeal(deal.id!)).notices;
        void client.invalidateQueries({ queryKey: dealKeys.all });
        if (notices.length) void client.invalidateQueries({ queryKey: objectKeys.all });
      },
      done: {
        get banner() {
          return savedBanner(t('deals.ui.deleted'), notices);
        },
        to: '/Deals',
      },
      onError: setError,
      release: leaveGuard.release,
    });
  };

  // A sale's deposit above the price is possible (a package, a renegotiated price) but usually a
  // typing slip: said under the deposit, not refused. A rental's price is a month's rent and its
  // deposit one to three months of it; more than three is said (a year's rent typed, a slip).
  const amount = (name: string) => {
    const v = form.values[name];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v.replace(',', '.')) : NaN;
    return Number.isFinite(n) ? n : null;
  };
  const depositWarning = depositCheck(dealType, amount('deposit'), amount('price') ?? amount('askingPrice'));

  const field = (d: TDealFieldDescription) => {
    const label = fieldLabel(d.name);
    const options = d.list ? (lists[d.list] ?? []) : [];
    if (readOnly) {
      const text = formatFieldValue(d.type, toWire(d.type, form.values[d.name] ?? null, options), t, options);
      return (
        <Shown label={label} testId={`deal-${d.name}`}>
          {text || (
            <Text span size="sm" c="dimmed">
              {t('deals.ui.notSet')}
            </Text>
          )}
        </Shown>
      );
    }
    return (
      <FieldInput
        type={d.type}
        label={label}
        value={form.values[d.name] ?? null}
        onChange={(v) => setValue(d.name, v)}
        error={errors[d.name]}
        description={d.name === 'deposit' && depositWarning ? t(depositWarning) : undefined}
        options={options}
        required={d.required}
        min={d.min}
        max={d.max}
        step={d.step}
        integer={d.integer}
        maxLength={d.max}
        minRows={3}
        autoFocus={false}
        testId={`deal-${d.name}`}
      />
    );
  };

  const groupCard = (g: (typeof DEAL_GROUPS)[number]) => {
    const fields = DEAL_FIELDS.filter((d) => d.group === g && shown(d, dealType));
    if (!fields.length) return null;
    return (
      <Card withBorder padding="sm" key={g} data-testid={`deal-group-${g}`}>
        <Title order={3} size="h5" mb="xs">
          {t(`deals.group.${g}`)}
        </Title>
        <Grid gap="sm">
          {fields.map((d) => (
            <Grid.Col key={d.name} span={d.type === 'textarea' ? 12 : { base: 12, sm: 6, lg: 3 }}>
              {field(d)}
            </Grid.Col>
          ))}
          {g === 'main' && (
            <>
              <Grid.Col span={{ base: 12, lg: 6 }}>
                {readOnly ? (
                  <Shown label={t('deals.ui.object')} testId="deal-object">
                    {form.object ? (
                      <Anchor component={Link} to={href(OBJECT.screens.view, { id: form.object.id })}>
                        {form.object.text}
                      </Anchor>
                    ) : (
                      <Text span size="sm" c="dimmed">
                        {t('deals.ui.notSet')}
                      </Text>
                    )}
                  </Shown>
                ) : (
                  <SearchPicker
                    label={t('deals.ui.object')}
                    placeholder={t('leads.ui.objects.addPlaceholder')}
                    value={form.object}
                    onChange={(v) => set({ object: v })}
                    search={searchObjectsByRef}
                    queryKey="object"
                    testId="deal-object-picker"
                    error={errors.objectId}
                  />
                )}
                {dealType !== DEAL_TYPE_RENTAL && <SoldAlready objectId={form.object?.id ?? null} dealId={deal.id ?? null} />}
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 6 }}>
                {readOnly ? (
                  <Shown label={t('deals.ui.lead')} testId="deal-lead">
                    {form.demand ? (
                      <Anchor component={Link} to={href(LEAD.screens.view, { id: form.demand.id })}>
                        {form.demand.text}
                      </Anchor>
                    ) : (
                      <Text span size="sm" c="dimmed">
                        {t('deals.ui.notSet')}
                      </Text>
                    )}
                  </Shown>
                ) : (
                  <SearchPicker label={t('deals.ui.lead')} value={form.demand} onChange={(v) => void pickLead(v)} search={searchLeadsQuick} queryKey="lead" testId="deal-lead-picker" />
                )}
              </Grid.Col>
            </>
          )}
        </Grid>
      </Card>
    );
  };

  const relationText = (r: number) => partyRelationText(t, r, dealType, relations.find((o) => Number(o.value) === r)?.text ?? String(r));
  const parties = (
    <Card withBorder padding="sm" data-testid="deal-parties">
      <Title order={3} size="h5" mb="xs">
        {t('deals.ui.parties')}
      </Title>
      {form.parties.length === 0 && (
        <Text size="sm" c="dimmed">
          {t(dealType === DEAL_TYPE_RENTAL ? 'deals.ui.noPartiesRental' : 'deals.ui.noParties')}
        </Text>
      )}
      {form.parties.length > 0 && (
        <Table.ScrollContainer minWidth={320}>
          {/* On a phone, an edited row stacks (deals.css): the person above, the relation and Remove below. */}
          <Table className={readOnly ? undefined : 'deal-parties-edit'}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('deals.ui.account')}</Table.Th>
                <Table.Th>{t('deals.ui.relation')}</Table.Th>
                {!readOnly && <Table.Th w={48}>{t('deals.ui.remove')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {form.parties.map((p, i) => (
                <Table.Tr key={p.key} data-testid="deal-party">
                  <Table.Td>
                    {readOnly ? (
                      p.account && (
                        <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: p.account.id })}>
                          {p.account.text}
                        </Anchor>
                      )
                    ) : (
                      <SearchPicker
                        label={t('deals.ui.account')}
                        hideLabel
                        value={p.account}
                        onChange={(v) => set({ parties: form.parties.map((x, j) => (j === i ? { ...x, account: v } : x)) })}
                        search={searchAccounts}
                        queryKey="account"
                        testId="deal-party-account"
                      />
                    )}
                  </Table.Td>
                  <Table.Td>
                    {readOnly ? (
                      relationText(p.relation)
                    ) : (
                      <Select
                        aria-label={t('deals.ui.relation')}
                        data={relations.map((o) => ({ value: String(o.value), label: relationText(Number(o.value)) }))}
                        value={String(p.relation)}
                        allowDeselect={false}
                        onChange={(v) => set({ parties: form.parties.map((x, j) => (j === i ? { ...x, relation: Number(v) } : x)) })}
                        comboboxProps={{ withinPortal: true }}
                        data-testid="deal-party-relation"
                      />
                    )}
                  </Table.Td>
                  {!readOnly && (
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        mt={4}
                        aria-label={t('deals.ui.removeOne', { name: p.account?.text ?? relationText(p.relation) })}
                        onClick={() => set({ parties: form.parties.filter((_, j) => j !== i) })}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!readOnly && (
        <Group mt="xs">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => set({ parties: [...form.parties, { key: nextKey++, account: null, relation: form.parties.some((p) => p.relation === 1) ? 2 : 1 }] })}
            data-testid="deal-add-party"
          >
            {t('deals.ui.addParty')}
          </Button>
        </Group>
      )}
    </Card>
  );

  return (
    <Stack gap="sm" data-testid="deal-page" data-mode={mode}>
      <RecordToolbar
        title={
          <Title order={2} size="h3">
            {mode === 'create' ? t('deals.ui.new') : t('deals.ui.title', { id: deal.id })}
          </Title>
        }
        mode={mode}
        backText={t('deals.ui.back')}
        onBack={goBack}
        route="/Deals"
        id={deal.id}
        onDelete={() => void remove()}
        onSave={() => void save()}
        busy={busy}
        error={error}
        testId="deal"
      />
      {DEAL_GROUPS.map((g) => (
        <Fragment key={g}>
          {groupCard(g)}
          {g === 'main' && parties}
        </Fragment>
      ))}
      {mode !== 'create' && deal.id != null && (
        <RecordStamps createdOn={deal.createdOn} createdBy={deal.createdBy} modifiedOn={deal.modifiedOn} modifiedBy={deal.modifiedBy} testId="deal-stamps" />
      )}
      {mode === 'view' && deal.id != null && <ActivityList entityType={ENTITY_DEAL} id={deal.id} editable />}
    </Stack>
  );
}
