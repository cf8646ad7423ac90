/**
 * Code a page fetches on first use rather than on load (decisions 007, 013 and 016): a form's
 * schema and zod, for instance, which nothing needs until the visitor types.
 */
import type { FormEvent } from 'react';
import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * `load()` imports the module once and keeps it; an import that failed (a chunk that could not
 * be fetched) is tried again on the next call, and its error reaches the caller.
 */
export function onDemand<T>(importer: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= importer().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}

/** A react-hook-form resolver whose code is loaded by `load` when it first validates. */
export function resolverOnDemand<TFieldValues extends FieldValues, TContext, TTransformed>(
  load: () => Promise<Resolver<TFieldValues, TContext, TTransformed>>,
): Resolver<TFieldValues, TContext, TTransformed> {
  return async (values, context, options) => (await load())(values, context, options);
}

/**
 * Submits a form whose validation is loaded by `load` (`onFocus` starts it early), once loaded.
 * If it cannot be fetched, `onFailure` runs (the form's failure toast) and the form keeps its
 * values.
 */
export function submitOnceLoaded(
  event: FormEvent,
  load: () => Promise<unknown>,
  submit: () => Promise<unknown>,
  onFailure: () => void,
): void {
  event.preventDefault();
  void load().then(() => submit(), onFailure);
}
