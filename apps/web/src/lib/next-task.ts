import { useEffect, useState } from 'react';

/**
 * Lets the browser run what is waiting (input, painting, network answers) before the caller goes on.
 * The start of the app is several pieces of work (texts, router, first render); run as one task they
 * blocked a phone's main thread for most of a second, during which a tap did nothing.
 * `scheduler.yield()` where the browser has it (it resumes ahead of other tasks), otherwise a
 * message to ourselves (not clamped like a nested setTimeout).
 */
type WithScheduler = { scheduler?: { yield?: () => Promise<void> } };

export function nextTask(): Promise<void> {
  const scheduler = (globalThis as WithScheduler).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Runs `work` when the browser is idle (or after `timeout` ms at the latest): for what nobody waits for. */
export function whenIdle(work: () => void, timeout = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout });
  else setTimeout(work, 200);
}

/**
 * False until the browser is first idle after the component mounted: for what a screen shows beside
 * its purpose (the unread count, a list below the fold). Asked at once, such requests and code
 * competed with the screen's own on a phone's first visit; asked when idle, they follow it.
 */
export function useWhenIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  return idle;
}
