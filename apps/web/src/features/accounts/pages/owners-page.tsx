import { useTranslation } from '../../../lib/use-translation.tsx';
import { OWNERS } from '../api/account-lists.ts';
import { AccountList } from '../components/account-list.tsx';
import { createdColumns, modifiedColumns, nameColumn, objectsColumn, phoneColumn } from '../../../components/account-columns.tsx';

/** /Owners: the owners, newest first. */
export function OwnersPage() {
  const { t } = useTranslation();
  return <AccountList {...OWNERS} columns={() => [...createdColumns(t), nameColumn(t), phoneColumn(t), objectsColumn(t), ...modifiedColumns(t)]} />;
}
