/**
 * The rows of a raw `db.execute(sql...)`: node-postgres answers
 * `{ rows }`. One reader, so no module guesses at the shape on its own.
 */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? [];
}
