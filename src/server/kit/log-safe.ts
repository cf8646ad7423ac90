/**
 * What the logs may say of an error (decision 033). A database error's message holds its SQL and
 * its parameters (drizzle's "Failed query: ... params: ..."), and a constraint's detail quotes the
 * row: an address searched for, a visitor's words. So an error is logged by its kind and code
 * (SQLSTATE for the database, Node's code otherwise) and the frames of its stack, never its
 * message, its parameters or its cause's message. Record ids go beside it, named by the caller.
 */

type ErrorLike = { name?: unknown; code?: unknown; cause?: unknown; stack?: unknown };

const CODE = /^[A-Z0-9_]{1,40}$/i;

/** The error's code: its own, or its cause's (drizzle wraps the driver's error), else none. */
export function errorCode(error: unknown): string | undefined {
  for (
    let e = error as ErrorLike | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as ErrorLike, depth += 1
  ) {
    if (typeof e.code === 'string' && CODE.test(e.code)) return e.code;
  }
  return undefined;
}

/** The error's class name ('DrizzleQueryError', 'TypeError'), never its message. */
export function errorKind(error: unknown): string {
  const e = error as ErrorLike | null;
  const name = typeof e?.name === 'string' ? e.name : (e?.constructor as { name?: string } | undefined)?.name;
  return name && /^[\w$.]{1,60}$/.test(name) ? name : 'Error';
}

/**
 * The stack's frames without its head (the message, however many lines): where, never what. The
 * message is taken out before the lines are read, so a line of it that looks like a frame
 * ("\n    at someone@example.org") is not kept as one.
 */
function frames(error: unknown): string {
  const { stack, message } = (error as (ErrorLike & { message?: unknown }) | null) ?? {};
  if (typeof stack !== 'string') return '';
  const body = typeof message === 'string' && message !== '' ? stack.replace(message, '') : stack;
  return body
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8)
    .join('\n');
}

/** What stands for an error's message in the log. */
export const MESSAGE_NOT_LOGGED = 'not logged (it may quote personal data)';

/**
 * Pino's `err` serializer for the app's logger: the error's kind, its code, and the frames of its
 * stack as `stack`; its message is never written.
 */
export function safeError(error: unknown): { type: string; message: string; stack: string; code?: string } {
  const code = errorCode(error);
  return {
    type: errorKind(error),
    message: MESSAGE_NOT_LOGGED,
    stack: frames(error),
    ...(code ? { code } : {}),
  };
}
