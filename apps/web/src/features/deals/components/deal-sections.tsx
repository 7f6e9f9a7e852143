import { Alert, Anchor, Button, Grid, Group, Select, Table, Text } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TSelectOption } from '@crm/contract';
import { DEAL_STAGE_CLOSED, DEAL_TYPE_RENTAL, DEAL_TYPE_SALE, type DEAL_GROUPS, type TDealFieldDescription } from '@crm/contract/deal-fields';
import { ACCOUNT, DEAL, LEAD, OBJECT, href } from '@crm/contract/resources';
import { DescribedInput, ShownValue } from '../../../kit/field-group.tsx';
import { formatFieldValue, toWire, type Draft } from '../../../components/fields/field-values.ts';
import { IconPlus } from '../../../components/icons.ts';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import { searchAccounts, searchLeadsQuick, searchObjectsByRef } from '../../../lib/pickers.ts';
import { dealsOfQuery, type TDealAnswer } from '../api/deals.ts';
import { dealGroupFields, depositWarning, newPartyKey, typeOf, type DealFormValues } from '../deal-form.ts';
import { partyRelationText } from '../party-relation.ts';
import { RemoveButton } from '../../../components/remove-button.tsx';

/** What the deal form's parts share: the form, its errors, the lists and labels of the deal's type. */
export type DealFormParts = {
  deal: TDealAnswer;
  form: DealFormValues;
  set: (patch: Partial<DealFormValues>) => void;
  setValue: (name: string, v: Draft) => void;
  pickLead: (v: Picked) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  lists: Record<string, TSelectOption[]>;
  fieldLabel: (name: string) => string;
};

function NotSet() {
  const { t } = useTranslation();
  return (
    <Text span size="sm" c="dimmed">
      {t('deals.ui.notSet')}
    </Text>
  );
}

/** The deal's property or lead, viewed: a link to it, or "not set". */
function ShownLink({ label, testId, to, text }: { label: string; testId: string; to: string | null; text: string | undefined }) {
  return (
    <ShownValue label={label} testId={testId}>
      {to ? (
        <Anchor component={Link} to={to}>
          {text}
        </Anchor>
      ) : (
        <NotSet />
      )}
    </ShownValue>
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

/** A described field: its value in view mode, its input otherwise (the deposit with its second look). */
function DealField({ p, d }: { p: DealFormParts; d: TDealFieldDescription }) {
  const { t } = useTranslation();
  const label = p.fieldLabel(d.name);
  const options = d.list ? (p.lists[d.list] ?? []) : [];
  if (p.readOnly) {
    const text = formatFieldValue(d.type, toWire(d.type, p.form.values[d.name] ?? null, options), t, options);
    return (
      <ShownValue label={label} testId={`deal-${d.name}`}>
        {text || <NotSet />}
      </ShownValue>
    );
  }
  const warning = d.name === 'deposit' ? depositWarning(p.form.values) : null;
  return (
    <DescribedInput
      d={d}
      f={{ drafts: p.form.values, set: p.setValue, errors: p.errors }}
      label={label}
      options={options}
      required={d.required}
      description={warning ? t(warning) : undefined}
      testId={`deal-${d.name}`}
    />
  );
}

/** The property and the lead of the deal: links in view mode, pickers otherwise. */
function DealLinks({ p }: { p: DealFormParts }) {
  const { t } = useTranslation();
  const { form } = p;
  return (
    <>
      <Grid.Col span={{ base: 12, lg: 6 }}>
        {p.readOnly ? (
          <ShownLink label={t('deals.ui.object')} testId="deal-object" to={form.object && href(OBJECT.screens.view, { id: form.object.id })} text={form.object?.text} />
        ) : (
          <SearchPicker
            label={t('deals.ui.object')}
            placeholder={t('leads.ui.objects.addPlaceholder')}
            value={form.object}
            onChange={(v) => p.set({ object: v })}
            search={searchObjectsByRef}
            queryKey="object"
            testId="deal-object-picker"
            error={p.errors.objectId}
          />
        )}
        {typeOf(form.values) !== DEAL_TYPE_RENTAL && <SoldAlready objectId={form.object?.id ?? null} dealId={p.deal.id ?? null} />}
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 6 }}>
        {p.readOnly ? (
          <ShownLink label={t('deals.ui.lead')} testId="deal-lead" to={form.demand && href(LEAD.screens.view, { id: form.demand.id })} text={form.demand?.text} />
        ) : (
          <SearchPicker label={t('deals.ui.lead')} value={form.demand} onChange={p.pickLead} search={searchLeadsQuick} queryKey="lead" testId="deal-lead-picker" />
        )}
      </Grid.Col>
    </>
  );
}

/** One group of the deal's fields (the main one with the property and the lead). */
export function DealGroupCard({ p, g }: { p: DealFormParts; g: (typeof DEAL_GROUPS)[number] }) {
  const { t } = useTranslation();
  const fields = dealGroupFields(g, typeOf(p.form.values));
  if (!fields.length) return null;
  return (
    <SectionCard title={t(`deals.group.${g}`)} testId={`deal-group-${g}`}>
      <Grid gap="sm">
        {fields.map((d) => (
          <Grid.Col key={d.name} span={d.type === 'textarea' ? 12 : { base: 12, sm: 6, lg: 3 }}>
            <DealField p={p} d={d} />
          </Grid.Col>
        ))}
        {g === 'main' && <DealLinks p={p} />}
      </Grid>
    </SectionCard>
  );
}

/** The deal's parties: a person in a relation each (buyer, seller, notary ...). */
export function DealParties({ p }: { p: DealFormParts }) {
  const { t } = useTranslation();
  const { form, readOnly, set } = p;
  const dealType = typeOf(form.values);
  const relations = p.deal.dealAccountRelationOptions;
  const relationText = (r: number) => partyRelationText(t, r, dealType, relations.find((o) => Number(o.value) === r)?.text ?? String(r));
  const setRow = (i: number, patch: Partial<DealFormValues['parties'][number]>) => set({ parties: form.parties.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
  return (
    <SectionCard title={t('deals.ui.parties')} testId="deal-parties" empty={form.parties.length === 0 && t(dealType === DEAL_TYPE_RENTAL ? 'deals.ui.noPartiesRental' : 'deals.ui.noParties')}>
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
              {form.parties.map((row, i) => (
                <Table.Tr key={row.key} data-testid="deal-party">
                  <Table.Td>
                    {readOnly ? (
                      row.account && (
                        <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: row.account.id })}>
                          {row.account.text}
                        </Anchor>
                      )
                    ) : (
                      <SearchPicker label={t('deals.ui.account')} hideLabel value={row.account} onChange={(v) => setRow(i, { account: v })} search={searchAccounts} queryKey="account" testId="deal-party-account" />
                    )}
                  </Table.Td>
                  <Table.Td>
                    {readOnly ? (
                      relationText(row.relation)
                    ) : (
                      <Select
                        aria-label={t('deals.ui.relation')}
                        data={relations.map((o) => ({ value: String(o.value), label: relationText(Number(o.value)) }))}
                        value={String(row.relation)}
                        allowDeselect={false}
                        onChange={(v) => setRow(i, { relation: Number(v) })}
                        comboboxProps={{ withinPortal: true }}
                        data-testid="deal-party-relation"
                      />
                    )}
                  </Table.Td>
                  {!readOnly && (
                    <Table.Td>
                      <RemoveButton label={t('deals.ui.removeOne', { name: row.account?.text ?? relationText(row.relation) })} onClick={() => set({ parties: form.parties.filter((_, j) => j !== i) })} mt={4} />
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
            onClick={() => set({ parties: [...form.parties, { key: newPartyKey(), account: null, relation: form.parties.some((x) => x.relation === 1) ? 2 : 1 }] })}
            data-testid="deal-add-party"
          >
            {t('deals.ui.addParty')}
          </Button>
        </Group>
      )}
    </SectionCard>
  );
}
