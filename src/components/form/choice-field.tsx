/**
 * A radio group as a field of the kit (see field.tsx): the group's legend names it, and its error
 * sits in the same reserved live region as every field's, describing the group and each option.
 */
import { useId, type ComponentProps } from 'react';
import { ChoiceGroup } from './choice-group';
import { FieldError, type Announce } from './field';

export function ChoiceField({
  error,
  announce,
  ...group
}: Omit<ComponentProps<typeof ChoiceGroup>, 'invalid' | 'describedBy' | 'children'> & {
  error?: string;
  announce?: Announce;
}) {
  const errorId = `${useId()}-error`;
  return (
    <ChoiceGroup {...group} invalid={!!error} describedBy={errorId}>
      <FieldError id={errorId} message={error} announce={announce} />
    </ChoiceGroup>
  );
}
