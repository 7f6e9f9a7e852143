// /Settings/DocumentTemplates: the agency's document templates, their texts per language (decision 084).
import { Alert, Badge, Button, Card, Code, Group, Select, Skeleton, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TDocTemplateListAnswer, TDocTemplateText } from '@crm/contract';
import { DOC_TEMPLATES, isMailTemplate, type TDocTemplateKind } from '@crm/contract/doc-template-kinds';
import type { TCulture } from '@crm/contract/constants';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { useFormLeaveGuard } from '../../../lib/unsaved-guard.tsx';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { docTemplatesKey, docTemplatesQuery, resetDocTemplate, saveDocTemplate } from '../api/doc-templates.ts';
import { CultureChoice } from '../../../components/culture-choice.tsx';

type Texts = Pick<TDocTemplateText, 'title' | 'body' | 'signatures'>;
const textsOf = (x: TDocTemplateText): Texts => ({ title: x.title, body: x.body, signatures: x.signatures });

/** The settings screen of the document templates: pick a template and a language, edit its texts, save or go back to the default. */
export function DocTemplatesPage() {
  const { t } = useTranslation();
  const q = useQuery(docTemplatesQuery());
  const [kind, setKind] = useState<TDocTemplateKind>('mandateExclusive');
  const [culture, setCulture] = useState<TCulture>(currentCulture());
  return (
    <Stack gap="md" maw={1000} data-testid="doc-templates-page">
      <Title order={2}>{t('doctemplates.ui.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('doctemplates.ui.intro')}
      </Text>
      <Alert color="yellow" data-testid="doc-templates-lawyer">
        {t('doctemplates.ui.lawyer')}
      </Alert>
      <Group gap="md" align="end" wrap="wrap">
        <Select
          label={t('doctemplates.ui.template')}
          value={kind}
          onChange={(v) => v && setKind(v as TDocTemplateKind)}
          data={DOC_TEMPLATES.map((k) => ({ value: k, label: t(`doctemplates.ui.kind.${k}`) }))}
          allowDeselect={false}
          w={320}
          data-testid="doc-template-kind"
        />
        <CultureChoice id="doc-template-language-label" label={t('doctemplates.ui.language')} value={culture} onChange={setCulture} testId="doc-template-language" />
      </Group>
      {q.isPending ? (
        <Skeleton h={400} />
      ) : q.isError ? (
        <Alert color="red">{describeError(q.error).message}</Alert>
      ) : (
        <TemplateEditor key={`${kind}-${culture}`} data={q.data} kind={kind} culture={culture} />
      )}
    </Stack>
  );
}

function TemplateEditor({ data, kind, culture }: { data: TDocTemplateListAnswer; kind: TDocTemplateKind; culture: TCulture }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const stored = data.items.find((i) => i.kind === kind && i.culture === culture)!;
  const [base, setBase] = useState(stored);
  const [texts, setTexts] = useState<Texts>(textsOf(stored));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const dirty = JSON.stringify(texts) !== JSON.stringify(textsOf(base));
  const guard = useFormLeaveGuard(dirty);
  useEffect(() => {
    // Read again (another tab saved): shown when nothing is typed here.
    if (!dirty && stored.version !== base.version) {
      setBase(stored);
      setTexts(textsOf(stored));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored]);
  const put = (x: TDocTemplateText) => {
    setBase(x);
    setTexts(textsOf(x));
    setErrors({});
    client.setQueryData(docTemplatesKey, (old: TDocTemplateListAnswer | undefined) => (old ? { ...old, items: old.items.map((i) => (i.kind === x.kind && i.culture === x.culture ? x : i)) } : old));
  };
  const onError = (e: unknown) => {
    if (e instanceof ApiError && e.status === 409 && e.problem.current) {
      put(e.problem.current as TDocTemplateText);
      showBanner('warning', t('doctemplates.ui.conflict'));
    } else if (e instanceof ApiError && e.status === 400 && Object.keys(e.fieldErrors).length) setErrors(e.fieldErrors);
    else {
      const d = describeError(e);
      showBanner(d.type, d.message);
    }
  };
  const save = useGuardedMutation({
    mutationFn: () => saveDocTemplate({ kind, culture, ...texts, version: base.version }),
    meta: { handlesErrors: true },
    onSuccess: (x) => {
      put(x);
      guard.release();
      showBanner('success', t('doctemplates.ui.saved'));
    },
    onError,
  });
  const reset = useGuardedMutation({
    mutationFn: () => resetDocTemplate({ kind, culture, version: base.version }),
    meta: { handlesErrors: true },
    onSuccess: (x) => {
      put(x);
      showBanner('success', t('doctemplates.ui.resetDone'));
    },
    onError,
  });
  const askReset = () =>
    confirmAction(t, { title: t('doctemplates.ui.reset'), text: t('doctemplates.ui.resetConfirm'), confirm: t('doctemplates.ui.reset'), testId: 'doc-template-reset-confirm', onConfirm: () => reset.mutate(),
    });
  const mail = isMailTemplate(kind);
  const set = (part: keyof Texts) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setTexts((x) => ({ ...x, [part]: e.currentTarget.value }));
  return (
    <Card withBorder padding="md" data-testid="doc-template-editor">
      <Stack gap="sm">
        <Group gap="xs">
          {base.edited ? (
            <Badge color="blue" variant="light" tt="none" data-testid="doc-template-edited">
              {t('doctemplates.ui.edited')}
            </Badge>
          ) : (
            <Badge color="gray" variant="light" tt="none" data-testid="doc-template-default">
              {t('doctemplates.ui.default')}
            </Badge>
          )}
          {base.edited && base.modifiedOn && (
            <Text size="xs" c="dimmed">
              {t('doctemplates.ui.editedBy', { date: formatDateTime(base.modifiedOn), name: base.modifiedBy ?? '' })}
            </Text>
          )}
        </Group>
        {mail && (
          <Text size="sm" c="dimmed" data-testid="doc-template-mail-help">
            {t('doctemplates.ui.mailHelp')}
          </Text>
        )}
        <TextInput label={t(mail ? 'doctemplates.ui.part.subject' : 'doctemplates.ui.part.title')} value={texts.title} onChange={set('title')} error={errors.title} data-testid="doc-template-title" />
        <Textarea
          label={t('doctemplates.ui.part.body')}
          description={mail ? undefined : t('doctemplates.ui.bodyHelp')}
          value={texts.body}
          onChange={set('body')}
          error={errors.body}
          autosize
          minRows={12}
          maxRows={30}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          data-testid="doc-template-body"
        />
        {!mail && <Textarea label={t('doctemplates.ui.part.signatures')} value={texts.signatures} onChange={set('signatures')} error={errors.signatures} autosize minRows={2} data-testid="doc-template-signatures" />}
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('doctemplates.ui.placeholders')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('doctemplates.ui.placeholdersHelp')}
          </Text>
          <Group gap={6} data-testid="doc-template-placeholders">
            {(data.placeholders[kind] ?? []).map((p) => (
              <Code key={p}>{`{${p}}`}</Code>
            ))}
          </Group>
        </Stack>
        <Group gap="sm">
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!dirty} data-testid="doc-template-save">
            {t('doctemplates.ui.save')}
          </Button>
          {base.edited && (
            <Button variant="default" color="red" onClick={askReset} loading={reset.isPending} data-testid="doc-template-reset">
              {t('doctemplates.ui.reset')}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
