// A deal's documents sent for signature by link (decision 086): the offer/reservation agreement
// and its property's handover protocol, each signed by the deal's sellers and buyers.
import { Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { SignRequests } from '../../../components/sign-requests.tsx';

/** The card: each document's "Send for signature" and its requests with their state, as the mandate card shows them. */
export function DealSigning({ dealId, objectId }: { dealId: number; objectId: number | null }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" data-testid="deal-signing">
      <Title order={3} size="h5" mb={6}>
        {t('signing.ui.dealDocuments')}
      </Title>
      <Stack gap="sm">
        <Stack gap={4} data-testid="deal-sign-offer">
          <Text size="sm" fw={600}>
            {t('doctemplates.ui.kind.offer')}
          </Text>
          <SignRequests source="offer" id={dealId} title={t('doctemplates.ui.kind.offer')} />
        </Stack>
        <Stack gap={4} data-testid="deal-sign-handover">
          <Text size="sm" fw={600}>
            {t('doctemplates.ui.kind.handover')}
          </Text>
          {objectId !== null ? (
            <SignRequests source="handover" id={objectId} dealId={dealId} title={t('doctemplates.ui.kind.handover')} />
          ) : (
            <Text size="xs" c="dimmed" data-testid="deal-sign-handover-none">
              {t('signing.ui.handoverNoProperty')}
            </Text>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}
