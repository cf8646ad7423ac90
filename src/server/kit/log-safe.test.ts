import { describe, expect, it } from 'vitest';
import { errorCode, MESSAGE_NOT_LOGGED, safeError } from './log-safe';

/** An error as drizzle throws it: the SQL and its parameters in the message, the driver's error as cause. */
function queryError() {
  const cause = Object.assign(new Error('column "x" does not exist'), {
    code: '42703',
    detail: 'ada@example.org',
  });
  return Object.assign(new Error('Failed query: select * from t where email = $1\nparams: ada@example.org'), {
    name: 'DrizzleQueryError',
    query: 'select * from t where email = $1',
    params: ['ada@example.org'],
    cause,
  });
}

describe('safeError: an error as the log may hold it', () => {
  it('keeps the kind, the SQLSTATE of the cause and the frames; never the message, SQL or parameters', () => {
    const logged = safeError(queryError());
    expect(logged).toMatchObject({ type: 'DrizzleQueryError', code: '42703', message: MESSAGE_NOT_LOGGED });
    expect(logged.stack).toMatch(/^\s+at /);
    expect(JSON.stringify(logged)).not.toMatch(/example\.org|select|params/);
  });

  it('keeps no line of the message that looks like a frame', () => {
    const error = new Error('Failed query: select 1\nparams: x\n    at victim@example.org');
    const logged = safeError(error);
    expect(logged.stack).toMatch(/^\s+at /);
    expect(logged.stack).not.toContain('example.org');
  });

  it('takes a code of its own first, and none that is not a code', () => {
    expect(errorCode(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    expect(errorCode(Object.assign(new Error('x'), { code: 'ada@example.org' }))).toBeUndefined();
    expect(errorCode('a string')).toBeUndefined();
    expect(safeError(null)).toEqual({ type: 'Error', message: MESSAGE_NOT_LOGGED, stack: '' });
  });
});
