/**
 * The one way a form is built (decision 019): react-hook-form, validated by the form's zod
 * schema (the one the server uses) through a resolver whose module is fetched on first use
 * (decisions 013 and 016), the spam traps, and the fields drawn with the field kit (field.tsx).
 *
 * The guide form on the home page follows the same steps without react-hook-form, whose code
 * does not fit the home page's budget (decision 019).
 */
import type { FormEvent } from 'react';
import {
  get,
  useForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Mode,
  type Resolver,
  type SubmitErrorHandler,
  type SubmitHandler,
} from 'react-hook-form';
import { onDemand, resolverOnDemand, submitOnceLoaded } from '~/lib/on-demand';
import { useSpamTraps } from '~/lib/use-spam-traps';

/**
 * A form's validation module, fetched on first use: `load()` imports it (kept once it
 * succeeded, tried again after a failure), `resolver` validates through it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form's resolver
export function validationOnDemand<M extends { resolver: Resolver<any, any, any> }>(
  importer: () => Promise<M>,
): { load: () => Promise<M>; resolver: M['resolver'] } {
  const load = onDemand(importer);
  return { load, resolver: resolverOnDemand(() => load().then((m) => m.resolver)) };
}

type Validation<TInput extends FieldValues, TValues> = {
  load: () => Promise<unknown>;
  resolver: Resolver<TInput, unknown, TValues>;
};

function noop() {}

export function useSchemaForm<TInput extends FieldValues, TValues>({
  formType,
  validation,
  defaultValues,
  mode,
}: {
  formType: string;
  validation: Validation<TInput, TValues>;
  defaultValues: DefaultValues<TInput>;
  /** When fields are checked: on submit, then as they change (the default), or as each is left. */
  mode?: Mode;
}) {
  const traps = useSpamTraps(formType);
  const form = useForm<TInput, unknown, TValues>({ resolver: validation.resolver, defaultValues, mode });
  const { errors } = form.formState;
  return {
    ...form,
    ...traps,
    /** The message shown beside a field, if any. */
    errorOf: (name: FieldPath<TInput>): string | undefined =>
      (get(errors, name) as { message?: string } | undefined)?.message,
    /** The server's field errors, on the fields this form has. */
    showFieldErrors(fieldErrors: Record<string, string> = {}) {
      for (const [field, message] of Object.entries(fieldErrors))
        if (field in defaultValues) form.setError(field as FieldPath<TInput>, { message });
    },
    /** The form element's props: no browser validation, and the validation fetched on first focus. */
    formProps: { noValidate: true, onFocus: () => void validation.load().catch(noop) },
    /**
     * The form's submit handler: checks the values once the validation is there, then
     * `onValid`. `onFailure` runs when it cannot be fetched (the form keeps its values).
     */
    submit: (
      event: FormEvent,
      onValid: SubmitHandler<TValues>,
      onFailure: () => void,
      onInvalid?: SubmitErrorHandler<TInput>,
    ) => submitOnceLoaded(event, validation.load, form.handleSubmit(onValid, onInvalid), onFailure),
  };
}

export type SchemaForm<TInput extends FieldValues, TValues> = ReturnType<
  typeof useSchemaForm<TInput, TValues>
>;
