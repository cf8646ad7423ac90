/**
 * A value only the browser knows, such as what its clock says, on a prerendered page.
 *
 * The page renders the build-time value, and hydrates with it; the browser's value follows as
 * a transition, which React renders in short slices. (`useSyncExternalStore` with a different
 * server snapshot does the same switch as a synchronous render right after hydration, one long
 * task together with every pending effect: decision 016.)
 */
import { startTransition, useEffect, useState } from 'react';

const noSubscribe = () => () => {};

/**
 * `read()` after hydration and whenever `subscribe`'s callback fires; `prerendered` before.
 * `read` and `subscribe` should be stable (module functions or memoised).
 */
export function useBrowserValue<T>(
  read: () => T,
  prerendered: T,
  subscribe: (onChange: () => void) => () => void = noSubscribe,
): T {
  const [value, setValue] = useState(prerendered);
  useEffect(() => {
    const update = () => startTransition(() => setValue(read()));
    update();
    return subscribe(update);
  }, [read, subscribe]);
  return value;
}
