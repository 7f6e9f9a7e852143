import type { ReactNode } from 'react';
import './table.css';

/**
 * A short table that is not a paged list (home's recent actions, the mandates ending soon): striped,
 * scrolling sideways when narrower than `minWidth`, and on a phone each row a card whose cells carry
 * their column's name (`data-label` on the cells, `data-card="title"` on the one that heads the card).
 */
export function CardsTable({ testId, minWidth, headers, children }: { testId: string; minWidth: number; headers: string[]; children: ReactNode }) {
  return (
    <div className="crm-list">
      <div className="crm-table-x">
        <table className="crm-table crm-table-striped crm-table-cards" style={{ minWidth }} data-testid={testId}>
          <thead>
            <tr>
              {headers.map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </div>
  );
}
