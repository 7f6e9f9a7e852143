import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { ACROSS, FieldGrid } from '../../../kit/field-group.tsx';
import { Link } from 'react-router';
import { LEAD_SERVICES, type TLeadFieldDescription } from '@crm/contract/lead-fields';
import { formatFieldValue } from '../../../components/fields/field-values.ts';
import type { TLeadAnswer } from '../api/leads.ts';
import { leadFieldLabel, leadGroupTitle, leadOptions } from './lead-editor.tsx';
import { leadViewSections } from '../lead-screen-fields.ts';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { ACCOUNT, href } from '@crm/contract/resources';

const hasValue = (d: TLeadFieldDescription, v: unknown) => v != null && v !== '' && !(Array.isArray(v) && !v.length) && !(d.type === 'boolean' && v !== true);

/**
 * The lead's read-only page (view mode 0): every described field that holds a value, by group.
 * `fields`: the description it is drawn from (the real one unless given: a test's with a field more).
 */
export function LeadDetails({ lead, fields: described }: { lead: TLeadAnswer; fields?: readonly TLeadFieldDescription[] }) {
  const { t } = useTranslation();
  const rec = lead as unknown as Record<string, unknown>;
  const services = LEAD_SERVICES.filter((s) => rec[s] === true);
  return (
    <Stack gap="sm" data-testid="lead-details">
      <Card withBorder padding="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              {t('leads.ui.client')}
            </Text>
            {lead.accountId ? (
              <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: lead.accountId })} fw={600} data-testid="lead-client">
                {lead.account}
              </Anchor>
            ) : (
              <Text c="dimmed">{t('leads.noClient')}</Text>
            )}
          </Stack>
          <Group gap={6}>
            {services.map((s) => (
              <Badge key={s} variant="light">
                {t(`leads.service.${s}`)}
              </Badge>
            ))}
          </Group>
        </Group>
      </Card>
      {leadViewSections(described).map(({ group: g, fields }) => {
        const shown = fields.filter((d) => hasValue(d, rec[d.name]));
        if (!shown.length) return null;
        return (
          <SectionCard key={g} title={leadGroupTitle(t, g)} testId={`lead-group-${g}`}>
            <FieldGrid>
              {shown.map((d) => (
                <div key={d.name} data-testid={`lead-value-${d.name}`} style={d.type === 'textarea' ? ACROSS : undefined}>
                  <Text size="xs" c="dimmed">
                    {leadFieldLabel(t, d.name)}
                  </Text>
                  <Text size="sm" style={{ whiteSpace: d.type === 'textarea' ? 'pre-wrap' : undefined }}>
                    {formatFieldValue(d.type, rec[d.name], t, leadOptions(d, lead), d.name === 'locationId' ? (lead.location ?? undefined) : undefined)}
                  </Text>
                </div>
              ))}
            </FieldGrid>
          </SectionCard>
        );
      })}
      <RecordStamps createdOn={lead.createdOn} createdBy={lead.createdBy} modifiedOn={lead.modifiedOn} modifiedBy={lead.modifiedBy} testId="lead-stamps" />
    </Stack>
  );
}
