import { Stack, useMantineTheme, type MantineSpacing } from '@mantine/core';
import { takingOver } from '../lib/first-paint.ts';
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
  // Drawn on the server, and taken over in the browser: shown at once (no effects run on the server;
  // the data is there already).
  const [revealed, setRevealed] = useState(takingOver);
  const revealedRef = useRef(revealed);
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

/**
 * How far below (and above) the screen a deferred block starts to draw: half a phone screen, so it is
 * drawn (and grows, pushing what follows) before it scrolls into view.
 */
const NEAR_MARGIN = '400px';

/**
 * On a phone, draws `children` once the place they take comes within NEAR_MARGIN of the screen, or
 * when the keyboard's focus reaches it (the placeholder is a named, focusable region; Tab goes on
 * into the block); until then `placeholder`, of about the same height, holds the place. Wider
 * screens, and browsers without IntersectionObserver, draw at once. Once drawn, it stays. `armed`
 * false (the page above is still loading, so the place is not where it will be): it waits.
 */
export function WhenNear({ children, placeholder, label, armed = true }: { children: ReactNode; placeholder: ReactNode; label: string; armed?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  // Only phones (below the theme's sm, as the shell's own phone layout) defer: there the first
  // screen is a small part of a record, and the CPU is slow.
  const { breakpoints } = useMantineTheme();
  // Drawn on the server (and taken over in the browser): drawn at once.
  const [near, setNear] = useState(() => takingOver() || typeof IntersectionObserver === 'undefined' || window.matchMedia(`(min-width: ${breakpoints.sm})`).matches);
  const [deferred] = useState(!near);
  useEffect(() => {
    const el = ref.current;
    if (near || !armed || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: `${NEAR_MARGIN} 0px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, armed]);
  if (!deferred) return children;
  // The wrapper stays once the block is drawn: a focus that reached the placeholder stays on it
  // (no longer a Tab stop), and the next Tab goes into the block.
  return (
    <div ref={ref} tabIndex={near ? -1 : 0} role={near ? undefined : 'region'} aria-label={near ? undefined : label} onFocus={near ? undefined : () => setNear(true)}>
      {near ? children : placeholder}
    </div>
  );
}
