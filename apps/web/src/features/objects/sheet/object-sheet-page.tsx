import { Alert, Anchor, Button, Center, Checkbox, Group, Loader, Paper, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useParams, useSearchParams } from 'react-router';
import type { TObjectSheetAnswer } from '@crm/contract';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { objectSheetQuery } from '../api/object-sheet.ts';
import { validIdOrRef } from '../api/objects.ts';
import { IconPrinter } from '../icons.ts';
import { photoUrl } from '../components/object-photos.tsx';
import { printedPrice, readSheetOptions, SHEET_MAX_PHOTOS, writeSheetOptions, type TSheetOptions } from './sheet-options.ts';
import './object-sheet.css';
import { OBJECT, href } from '@crm/contract/resources';
import { CultureChoice } from '../../../components/culture-choice.tsx';


/**
 * /Objects/Sheet/{id or ref}: the property sheet an agent prints or saves as PDF for a client,
 * an owner or the shop window. The options above it (language, price, address, photos) are not
 * printed; the sheet itself speaks the language chosen, its texts made by the server.
 */
export function ObjectSheetPage() {
  const { t } = useTranslation();
  const idOrRef = useParams().id ?? '';
  const [search, setSearch] = useSearchParams();
  const reader = currentCulture();
  const options = readSheetOptions(search, reader);
  const valid = validIdOrRef(idOrRef);
  const sheet = useQuery({ ...objectSheetQuery(idOrRef, options.culture, options.address), enabled: valid, placeholderData: keepPreviousData });
  const set = (change: Partial<TSheetOptions>) => setSearch(writeSheetOptions({ ...options, ...change }, reader), { replace: true });

  if (!valid || (sheet.error instanceof ApiError && sheet.error.status === 404)) return <RecordNotFound testId="object-not-found" />;
  const data = sheet.data;
  return (
    <Stack gap="md" className="psheet-page" data-testid="sheet-page">
      <Paper withBorder p="sm" className="no-print" component="section" aria-label={t('objects.sheet.options')}>
        <Stack gap="sm">
          <Group justify="space-between" gap="xs">
            <Anchor component={Link} to={href(OBJECT.screens.view, { id: idOrRef })} data-testid="sheet-back">
              ← {t('objects.sheet.back')}
            </Anchor>
            <Button leftSection={<IconPrinter size={18} />} onClick={() => window.print()} disabled={!data} data-testid="sheet-print">
              {t('objects.sheet.print')}
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            {t('objects.sheet.options')}
          </Text>
          <Group gap="md" align="flex-end" wrap="wrap">
            <CultureChoice id="sheet-language" label={t('objects.sheet.language')} value={options.culture} onChange={(culture) => set({ culture })} testId="sheet-language" />
            {data && data.prices.length > 1 && (
              <Select
                label={t('objects.sheet.service')}
                value={printedPrice(data.prices, options.service)?.service ?? null}
                onChange={(v) => set({ service: (v as TSheetOptions['service']) ?? null })}
                data={data.prices.map((p) => ({ value: p.service, label: p.label }))}
                allowDeselect={false}
                w={220}
                data-testid="sheet-service"
              />
            )}
            <Select
              label={t('objects.sheet.photos')}
              value={String(options.photos)}
              onChange={(v) => set({ photos: Number(v ?? SHEET_MAX_PHOTOS) })}
              data={Array.from({ length: SHEET_MAX_PHOTOS + 1 }, (_, n) => ({ value: String(n), label: n === 0 ? t('objects.sheet.noPhotos') : String(n) }))}
              allowDeselect={false}
              w={140}
              data-testid="sheet-photos"
            />
          </Group>
          <Checkbox
            label={t('objects.sheet.showAddress')}
            description={t('objects.sheet.showAddressHint')}
            checked={options.address}
            onChange={(e) => set({ address: e.currentTarget.checked })}
            data-testid="sheet-address"
          />
        </Stack>
      </Paper>
      {sheet.isError && !data ? (
        <Alert color="red" className="no-print" data-testid="sheet-error">
          {describeError(sheet.error).message}
        </Alert>
      ) : !data ? (
        <Center py="xl">
          <Loader role="progressbar" aria-label={t('common.loading')} />
        </Center>
      ) : (
        <PropertySheet data={data} options={options} />
      )}
    </Stack>
  );
}

/** The printed sheet: agency, title and price, photos, facts, features, description, contact. */
function PropertySheet({ data, options }: { data: TObjectSheetAnswer; options: TSheetOptions }) {
  const { labels } = data;
  const price = printedPrice(data.prices, options.service);
  const photos = data.photos.slice(0, options.photos);
  const alt = (n: number) => `${data.title || data.ref} — ${labels.photo} ${n}`;
  const a = data.agency;
  const contact = [a.phone && `${labels.phone}: ${a.phone}`, a.email && `${labels.email}: ${a.email}`, a.address, a.website].filter(Boolean);
  // The registry and tax numbers: only those set (never a label with a blank after it).
  const numbers = [a.licence && `${labels.licence}: ${a.licence}`, a.taxNumber && `${labels.taxNumber}: ${a.taxNumber}${a.taxOffice ? `, ${labels.taxOffice}: ${a.taxOffice}` : ''}`].filter(Boolean);
  return (
    <article className="psheet" lang={data.culture} data-testid="sheet" data-ref={data.ref}>
      <header className="psheet-agency">
        {a.logo && <img className="psheet-logo" src={a.logo} alt="" data-testid="sheet-logo" />}
        <div className="psheet-agency-name" data-testid="sheet-agency">
          {a.name}
        </div>
        {contact.length > 0 && <div className="psheet-agency-contact">{contact.join(' · ')}</div>}
        {numbers.length > 0 && (
          <div className="psheet-agency-contact" data-testid="sheet-agency-numbers">
            {numbers.join(' · ')}
          </div>
        )}
      </header>
      <div className="psheet-top">
        <div>
          <h1 className="psheet-title" data-testid="sheet-title">
            {data.title || [data.type, data.place].filter(Boolean).join(', ')}
          </h1>
          <p className="psheet-where">
            {[data.type, data.place].filter(Boolean).join(' · ')}
            {data.address && (
              <>
                <br />
                <span data-testid="sheet-street">{data.address}</span>
              </>
            )}
          </p>
        </div>
        <div className="psheet-price-box">
          {price && (
            <>
              <div className="psheet-service">{price.label}</div>
              <div className="psheet-price" data-testid="sheet-price">
                {price.price}
                {price.per && <span className="psheet-per"> {price.per}</span>}
              </div>
              {price.was && (
                <div className="psheet-was">
                  {labels.was}: <s>{price.was}</s>
                </div>
              )}
            </>
          )}
          <div className="psheet-ref" data-testid="sheet-ref">
            {labels.ref}
          </div>
        </div>
      </div>
      {photos.length > 0 && (
        <div className="psheet-photos" data-count={photos.length}>
          <img className="psheet-main-photo" src={photoUrl(photos[0]!, 'web')} alt={alt(1)} data-testid="sheet-photo" />
          {photos.length > 1 && (
            <div className="psheet-more-photos">
              {photos.slice(1).map((id, i) => (
                <img key={id} src={photoUrl(id, 'web')} alt={alt(i + 2)} data-testid="sheet-photo" />
              ))}
            </div>
          )}
        </div>
      )}
      {data.facts.length > 0 && (
        <section className="psheet-section" aria-labelledby="sheet-facts">
          <h2 id="sheet-facts">{labels.facts}</h2>
          <dl className="psheet-facts" data-testid="sheet-facts">
            {data.facts.map((f) => (
              <div key={f.key}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
            {data.sharedExpenses && (
              <div>
                <dt>{labels.sharedExpenses}</dt>
                <dd>{data.sharedExpenses}</dd>
              </div>
            )}
          </dl>
        </section>
      )}
      {data.featureGroups.length > 0 && (
        <section className="psheet-section psheet-features" aria-labelledby="sheet-features">
          <h2 id="sheet-features">{labels.features}</h2>
          <div className="psheet-feature-groups">
            {data.featureGroups.map((g) => (
              <div key={g.key} className="psheet-feature-group" data-testid={`sheet-group-${g.key}`}>
                <h3>{g.title}</h3>
                <ul>
                  {g.items.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </section>
      )}
      {data.description && (
        <section className="psheet-section" aria-labelledby="sheet-description">
          <h2 id="sheet-description">{labels.description}</h2>
          <div className="psheet-description pre-line" data-testid="sheet-description">
            {data.description}
          </div>
        </section>
      )}
      {data.agent && (
        <footer className="psheet-footer" data-testid="sheet-contact">
          <div className="psheet-footer-label">{labels.agent}</div>
          <div className="psheet-footer-name" data-testid="sheet-agent">
            {data.agent.name}
          </div>
          <div>{[data.agent.phone, data.agent.email].filter(Boolean).join(' · ')}</div>
        </footer>
      )}
    </article>
  );
}
