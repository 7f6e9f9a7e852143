import { Button, type ButtonProps } from '@mantine/core';
import { useState } from 'react';
import { IconDownload } from './icons.ts';
import { describeError } from '../lib/errors.ts';
import { showBanner } from '../lib/banner.ts';

/**
 * A button that fetches an export and saves it (Deals.xlsx, a statement…): busy while the file is
 * made, pressed once at a time, and what went wrong said in the banner.
 */
export function DownloadButton({ download, label, testId, ...rest }: { download: () => Promise<void>; label: string; testId: string } & Omit<ButtonProps, 'children' | 'onClick' | 'loading'>) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await download();
    } catch (e) {
      const d = describeError(e);
      showBanner(d.type, d.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void run()} loading={busy} data-testid={testId} {...rest}>
      {label}
    </Button>
  );
}
