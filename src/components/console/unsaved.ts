/**
 * A console page's changes that are not saved yet are never lost without a word: while `dirty`,
 * leaving the page inside the console asks first (the browser's own confirm), and closing or
 * reloading the tab gets the browser's "Leave site?" prompt.
 */
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

export function useUnsavedGuard(dirty: boolean, question: string): void {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(question)) blocker.proceed();
    else blocker.reset();
  }, [blocker, question]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
