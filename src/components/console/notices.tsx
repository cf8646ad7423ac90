/**
 * What an action did, told to the owner: the console's two live regions (successes politely,
 * failures as alerts), the hook that fills them, the notice a navigation carries to the page it
 * opens, and running a POST with its outcome shown on the page it was run from.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { ApiResult } from '~/lib/api-client';

export type Notice = { tone: 'success' | 'error'; text: string };

const NoticeContext = createContext<(notice: Notice | null) => void>(() => {});

/** Shows (and announces) what the last action did; `null` clears it. */
export function useNotify() {
  return useContext(NoticeContext);
}

/**
 * The console's two live regions, always in the page (a region added with its message is not
 * read out): successes politely, failures as alerts. A message stays until the next action or
 * page; a page opened by an action (e.g. back to the list after a delete) starts with the
 * message that action left in the navigation's state.
 */
export function NoticeProvider({
  children,
  resetKey,
  initial,
}: {
  children: ReactNode;
  resetKey: string;
  initial: Notice | null;
}) {
  const [notice, setNotice] = useState<Notice | null>(initial);
  const [shownFor, setShownFor] = useState(resetKey);
  if (shownFor !== resetKey) {
    setShownFor(resetKey);
    setNotice(initial);
  }
  const frame = useRef(0);
  const notify = useCallback((next: Notice | null) => {
    // The same message twice is read out again only if the region changes in between.
    cancelAnimationFrame(frame.current);
    setNotice(null);
    if (next) frame.current = requestAnimationFrame(() => setNotice(next));
  }, []);
  // A message still waiting for its frame belongs to the page it was given on: another page drops it.
  useLayoutEffect(() => () => cancelAnimationFrame(frame.current), [resetKey]);
  return (
    <NoticeContext.Provider value={notify}>
      <div role="status">
        {notice?.tone === 'success' ? (
          <p className="mb-4 rounded-lg border border-success-700 bg-success-100 px-4 py-3 wrap-anywhere text-success-800">
            {notice.text}
          </p>
        ) : null}
      </div>
      <div role="alert">
        {notice?.tone === 'error' ? (
          <p className="mb-4 rounded-lg border border-danger-700 bg-white px-4 py-3 wrap-anywhere text-danger-700">
            {notice.text}
          </p>
        ) : null}
      </div>
      {children}
    </NoticeContext.Provider>
  );
}

/** The notice a navigation carries in its state, if any. */
export function noticeOf(state: unknown): Notice | null {
  const notice = (state as { notice?: Notice } | null)?.notice;
  return notice && typeof notice.text === 'string' ? notice : null;
}

/** Runs a POST and shows its outcome on the page it was run from: the success text, or the server's error. */
export function useAction() {
  const notify = useNotify();
  const [busy, setBusy] = useState<string | null>(null);
  // An answer that comes after the owner has left the page is not announced on the next one.
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  const run = useCallback(
    async <T,>(key: string, request: () => Promise<ApiResult<T>>, success: (data: T) => string | null) => {
      setBusy(key);
      const result = await request();
      setBusy(null);
      // Nor does it act there: its follow-up (a reload, a navigation) belonged to the page left.
      if (!shown.current) return undefined;
      if (!result.ok) {
        // 401 has already sent the console back to the sign-in page.
        if (result.status !== 401) notify({ tone: 'error', text: result.error });
        return undefined;
      }
      const text = success(result.data);
      if (text) notify({ tone: 'success', text });
      return result.data;
    },
    [notify],
  );
  return { busy, run };
}
