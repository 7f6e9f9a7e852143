import { ComingSoon } from '../../../app/coming-soon.tsx';

// Placeholder until the screen is built.
export function AccountViewPage() {
  return <ComingSoon />;
}
