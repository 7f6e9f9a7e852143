import { useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AddingRecord } from '../../../components/adding-record.tsx';
import { addObject, justAddedObjects, objectKeys } from '../api/objects.ts';
import { OBJECT, href } from '@crm/contract/resources';

/**
 * /Objects/Add and /Objects/Add/{ownerId} ("Add property" on an account's page): asks the server for
 * a blank object (with a new reference number), linked to that owner when one is given, and opens
 * it in expanded edit.
 */
export function ObjectAddPage() {
  const navigate = useNavigate();
  const params = useParams();
  const client = useQueryClient();
  const ownerId = params.ownerId ? Number(params.ownerId) : undefined;
  const forOwner = ownerId && Number.isInteger(ownerId) && ownerId > 0 ? ownerId : undefined;
  return (
    <AddingRecord
      key={forOwner ?? 0}
      testId="object"
      add={(changeKey) => addObject(changeKey, forOwner)}
      onAdded={(id) => {
        justAddedObjects.add(id);
        void client.invalidateQueries({ queryKey: objectKeys.lists });
        if (forOwner) {
          void client.invalidateQueries({ queryKey: ['account'] });
          void client.invalidateQueries({ queryKey: ['accounts'] });
        }
        navigate(href(OBJECT.screens.view, { id, viewMode: 2 }), { replace: true });
      }}
    />
  );
}
