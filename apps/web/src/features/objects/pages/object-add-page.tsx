import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AddingRecord } from '../../../components/adding-record.tsx';
import { addObject, justAddedObjects, objectKeys } from '../api/objects.ts';

/** /Objects/Add: asks the server for a blank object (with a new reference number) and opens it in expanded edit. */
export function ObjectAddPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  return (
    <AddingRecord
      testId="object"
      add={addObject}
      onAdded={(id) => {
        justAddedObjects.add(id);
        void client.invalidateQueries({ queryKey: objectKeys.lists });
        navigate(`/Objects/View/${id}/2`, { replace: true });
      }}
    />
  );
}
