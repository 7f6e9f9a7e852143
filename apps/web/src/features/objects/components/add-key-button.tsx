import { Button, type ButtonProps } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { IconKey } from '../../../components/icons.ts';
import { addKeyPath } from '../api/object-keys.ts';

/** "Add key": opens the key form for this property (/ObjectKeys/new?objectId=…); after saving it comes back here. */
export function AddKeyButton({ objectId, ...props }: ButtonProps & { objectId: number }) {
  const { t } = useTranslation();
  return (
    <Button component={Link} to={addKeyPath(objectId)} variant="light" leftSection={<IconKey size={16} />} data-testid="object-add-key" {...props}>
      {t('objectkeys.add')}
    </Button>
  );
}
