import { Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { TObjectKeyAnswer } from '@crm/contract';
import { JUST_READ_MS } from '../../../lib/freshness.ts';
import { carryForm, mergeOnConflict } from '../../../lib/conflict-merge.ts';
import { RecordLoad, useRecordAddress } from '../../../kit/record.tsx';
import { keyKeys, objectKeyQuery } from '../api/object-keys.ts';
import { KeyForm, toKeyForm } from '../components/key-form.tsx';
import type { TKeyForm } from '../components/key-form-parts.tsx';
import { KeyHistory } from '../components/key-history.tsx';

/** /ObjectKeys/{id} edits a key; /ObjectKeys/new?objectId= adds one to a property. */
export function ObjectKeyPage() {
  const { id, valid, search } = useRecordAddress('/ObjectKeys/', { newId: 'new' });
  if (id == null && valid) {
    const objectId = Number(search.get('objectId'));
    return <KeyForm key="new" initial={null} objectId={Number.isInteger(objectId) && objectId > 0 ? objectId : null} />;
  }
  return <ExistingKey id={id ?? 0} valid={valid} />;
}

function ExistingKey({ id, valid }: { id: number; valid: boolean }) {
  // The route asked for it while this code loaded (app/router.tsx): that read is this opening's.
  const q = useQuery({ ...objectKeyQuery(id), staleTime: JUST_READ_MS, enabled: valid });
  const client = useQueryClient();
  // What the key form holds now, for a loan's correction that changes the key (a new version).
  const typed = useRef<(() => TKeyForm) | null>(null);
  /**
   * A loan corrected or deleted: the key as the server answered it. When its newest loan changed
   * the key, the form opens on the new version with what was typed in it and not saved yet.
   */
  const keyChanged = (next: TObjectKeyAnswer) => {
    const before = q.data!;
    const form = typed.current?.();
    if (next.version !== before.version && form) {
      const m = mergeOnConflict(toKeyForm(before), form, toKeyForm(next));
      if (m.changed.length) carryForm(`key-${id}`, m.next);
    }
    client.setQueryData(keyKeys.edit(id), next);
    void client.invalidateQueries({ queryKey: ['objectKeys', 'list'] });
    void client.invalidateQueries({ queryKey: ['object'] });
  };
  return (
    <RecordLoad q={q} valid={valid} mode="edit" readByRoute testId="key">
      {(key) => (
        <Stack gap="md" maw={720}>
          <KeyForm key={`${id}:${key.version}`} initial={key} objectId={key.objectId} typed={typed} />
          <KeyHistory keyAnswer={key} onKeyChanged={keyChanged} />
        </Stack>
      )}
    </RecordLoad>
  );
}
