import { Button, Center, Group, Loader, SegmentedControl, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useParams, useSearchParams } from 'react-router';
import { CULTURES, type TCulture } from '@crm/contract/constants';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { ApiError } from '../../../lib/api.ts';
import { viewingSheetQuery } from '../api/viewings.ts';
import { IconPrinter } from '../icons.ts';
import './viewing-sheet.css';
import { SheetAgency, SheetObjects } from '../components/viewing-sheet-parts.tsx';
import { VIEWING, href } from '@crm/contract/resources';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/** Each language named in itself, as the language menu names them. */
const LANGUAGE_KEYS: Record<TCulture, string> = { en: 'lang.en-UK', el: 'lang.el', ru: 'lang.ru' };

/**
 * /Viewing/{id}/Sheet (decision 044): the viewing sheet the client signs, ready to print on one A4
 * page. Its texts come in the sheet's language (?culture=, else the client's, else the reader's),
 * which may differ from the screen's; the buttons above it are the reader's and are not printed.
 */
export function ViewingSheetPage() {
  const { t } = useTranslation();
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const asked = search.get('culture');
  const culture = (CULTURES as readonly string[]).includes(asked ?? '') ? (asked as TCulture) : null;
  const q = useQuery({ ...viewingSheetQuery(id, culture), enabled: valid });
  if (!valid || (q.error instanceof ApiError && q.error.status === 404)) return <RecordNotFound testId="viewing-not-found" />;
  if (q.isError && !q.data)
    return <FailureAlert failure={q.error} testId="viewing-sheet-error" />;
  if (!q.data)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const s = q.data;
  const x = (k: string) => s.texts[k] ?? '';
  const blank = <span className="viewing-sheet-blank" aria-hidden="true" />;
  const value = (v: string | null, testId?: string) => (v ? <span data-testid={testId}>{v}</span> : blank);
  const field = (label: string, v: ReactNode) => (
    <div className="viewing-sheet-field">
      <span className="viewing-sheet-label">{label}:</span> {v}
    </div>
  );
  return (
    <div className="viewing-sheet-page" data-testid="viewing-sheet-page">
      <Group className="no-print" justify="space-between" gap="xs" mb="sm">
        <Button component={Link} to={href(VIEWING.screens.view, { id })} variant="default">
          {t('viewings.sheet.ui.back')}
        </Button>
        <Group gap="xs">
          <Text size="sm" id="viewing-sheet-language">
            {t('viewings.sheet.ui.language')}
          </Text>
          <SegmentedControl
            aria-labelledby="viewing-sheet-language"
            size="xs"
            value={s.culture}
            data={CULTURES.map((c) => ({ value: c, label: <span lang={c}>{t(LANGUAGE_KEYS[c])}</span> }))}
            onChange={(v) => setSearch({ culture: v }, { replace: true })}
            data-testid="viewing-sheet-language"
          />
          <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()} data-testid="viewing-sheet-print">
            {t('viewings.sheet.ui.print')}
          </Button>
        </Group>
      </Group>
      <article className="viewing-sheet" lang={s.culture} data-testid="viewing-sheet" aria-busy={q.isFetching}>
        <SheetAgency agency={s.agency} x={x} />
        <h2 className="viewing-sheet-title" data-testid="viewing-sheet-title">
          {x('title')}
        </h2>
        <div className="viewing-sheet-meta">
          <span data-testid="viewing-sheet-number">
            {x('number')} {s.viewingNumber}
          </span>
          <span>
            {x('dateOfViewing')}: {value(s.dateOfViewing, 'viewing-sheet-date')}
          </span>
        </div>
        <section>
          <h3>{x('client')}</h3>
          <div className="viewing-sheet-fields" data-testid="viewing-sheet-client">
            {field(x('fullName'), value(s.client.name, 'viewing-sheet-client-name'))}
            {field(x('phone'), value(s.client.phone))}
            {field(x('email'), value(s.client.email))}
            {field(x('idNumber'), value(s.client.idNumber))}
            {field(x('agent'), value(s.agents, 'viewing-sheet-agent'))}
          </div>
        </section>
        <SheetObjects objects={s.objects} x={x} />
        <section>
          <h3>{x('declarationTitle')}</h3>
          <p className="viewing-sheet-declaration" data-testid="viewing-sheet-declaration">
            {s.declaration}
          </p>
        </section>
        <div className="viewing-sheet-place">
          {field(x('place'), blank)}
          {field(x('date'), blank)}
        </div>
        <div className="viewing-sheet-signatures">
          <div>
            <div className="viewing-sheet-sign-line" />
            <div>{x('clientSigns')}</div>
            <div className="viewing-sheet-small">
              {s.client.name ?? ''} {x('signature')}
            </div>
          </div>
          <div>
            <div className="viewing-sheet-sign-line" />
            <div>{x('agencySigns')}</div>
            <div className="viewing-sheet-small">
              {s.agents ?? ''} {x('signature')}
            </div>
          </div>
        </div>
      </article>
    </div>
  );
}
