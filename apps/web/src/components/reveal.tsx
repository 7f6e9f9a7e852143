import { Stack, type MantineSpacing } from '@mantine/core';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

type Report = (id: string, ready: boolean) => void;
const ReportContext = createContext<Report | null>(null);

/**
 * Inside a <RevealTogether>: tells it whether this section has what it needs to show itself at its
 * final size (its data, or its error). Outside one, does nothing.
 */
export function useSectionReady(id: string, ready: boolean) {
  const report = useContext(ReportContext);
  useLayoutEffect(() => {
    report?.(id, ready);
  }, [report, id, ready]);
}

/**
 * A record's sections (details, assignments, files, activities) load side by side; shown one by
 * one, each arrival would push the ones below it down the screen. This keeps them out of the layout
 * (their data loads meanwhile) and shows `fallback` until every section inside is ready, or
 * `timeoutMs` has passed, then shows them all at once: nothing on screen moves. Once shown, they
 * stay shown (a refetch never hides them again).
 */
export function RevealTogether({ children, fallback, gap, timeoutMs = 4000 }: { children: ReactNode; fallback: ReactNode; gap?: MantineSpacing; timeoutMs?: number }) {
  const states = useRef(new Map<string, boolean>());
  const [revealed, setRevealed] = useState(false);
  const revealedRef = useRef(false);
  const check = useCallback(() => {
    if (revealedRef.current || states.current.size === 0) return;
    if ([...states.current.values()].every(Boolean)) {
      revealedRef.current = true;
      setRevealed(true);
    }
  }, []);
  const report = useCallback<Report>(
    (id, ready) => {
      states.current.set(id, ready);
      check();
    },
    [check],
  );
  useEffect(() => {
    const timer = setTimeout(() => {
      revealedRef.current = true;
      setRevealed(true);
    }, timeoutMs);
    return () => clearTimeout(timer);
  }, [timeoutMs]);

  return (
    <ReportContext.Provider value={report}>
      {!revealed && fallback}
      <Stack gap={gap} style={revealed ? undefined : { display: 'none' }} data-revealed={revealed}>
        {children}
      </Stack>
    </ReportContext.Provider>
  );
}
