import { AddingRecord } from '../../../components/adding-record.tsx';
import { addObject, justAddedObjects, objectKeys } from '../api/objects.ts';
import { OBJECT, href } from '@crm/contract/resources';

/**
 * /Objects/Add and /Objects/Add/{ownerId} ("Add property" on an account's page): asks the server for
 * a blank object (with a new reference number), linked to that owner when one is given, and opens
 * it in expanded edit.
 */
export function ObjectAddPage() {
  return (
    <AddingRecord
      param="ownerId"
      testId="object"
      add={addObject}
      added={justAddedObjects}
      refresh={(forOwner) => (forOwner ? [objectKeys.lists, ['account'], ['accounts']] : [objectKeys.lists])}
      to={(id) => href(OBJECT.screens.view, { id, viewMode: 2 })}
    />
  );
}
