import { Button, Group, SegmentedControl, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { CULTURES, type TCulture } from '@crm/contract/constants';
import { INVOICE, urlOf } from '@crm/contract/resources';
import { IconDownload } from '../../../components/icons.ts';

/** The languages' own names, as the language menu writes them. */
const LANGUAGE_KEY: Record<TCulture, string> = { el: 'lang.el', en: 'lang.en-UK', ru: 'lang.ru' };

/**
 * An issued document's PDF (decision 085): Greek always, and the language chosen beside it (Greek
 * alone when Greek is chosen); downloaded through the session's file cookie.
 */
export function InvoicePdfButton({ id }: { id: number }) {
  const { t } = useTranslation();
  const [culture, setCulture] = useState<TCulture>('el');
  return (
    <Group gap="xs">
      <Text size="sm" id="invoice-pdf-language">
        {t('invoices.pdfLanguage')}
      </Text>
      <SegmentedControl
        size="xs"
        aria-labelledby="invoice-pdf-language"
        value={culture}
        onChange={(v) => setCulture(v as TCulture)}
        data={CULTURES.map((c) => ({ value: c, label: t(LANGUAGE_KEY[c]) }))}
        data-testid="invoice-pdf-language"
      />
      <Button component="a" variant="light" href={urlOf(INVOICE.calls.pdf, { params: { id }, query: { culture } })} download leftSection={<IconDownload size={16} />} data-testid="invoice-pdf">
        {t('invoices.action.pdf')}
      </Button>
    </Group>
  );
}
