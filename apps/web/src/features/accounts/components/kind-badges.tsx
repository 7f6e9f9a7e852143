import { Badge, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TAccountFields } from '@crm/contract';
import { kindsOf, type TKindFlag } from '../account-fields.ts';

const COLORS: Record<TKindFlag | 'hasTransactions', string> = {
  isOwner: 'grape',
  isClient: 'blue',
  isEmploye: 'dark',
  isSource: 'orange',
  isProfessional: 'teal',
  isPartnerRealEstate: 'indigo',
  isPartnerTourism: 'cyan',
  hasTransactions: 'yellow',
};

/** The kinds an account carries (owner, client, ...), as badges. */
export function KindBadges({ account }: { account: Pick<TAccountFields, TKindFlag | 'hasTransactions'> }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} data-testid="kind-badges">
      {kindsOf(account).map((k) => (
        <Badge key={k} color={COLORS[k]} variant="light" tt="none">
          {t(`accounts.ui.kind.${k}`)}
        </Badge>
      ))}
    </Group>
  );
}
