import type { ComponentType } from 'react';
import { useLocation } from 'react-router';

/**
 * A record screen that serves both its view address and its edit address (/Deals/{id} and
 * /Deals/Edit/{id}), remounted on each: edit starts from a fresh read of the record, while view may
 * take the answer its route asked for as the code loaded (JUST_READ_MS). React would otherwise keep
 * the one component across the two addresses, with the view's reading, and Edit would wait for a
 * fresh read that never comes.
 */
export function keyedByAddress(Screen: ComponentType): ComponentType {
  return function KeyedByAddress() {
    return <Screen key={useLocation().pathname} />;
  };
}
