import { Input, TextField as AriaTextField, type TextFieldProps as AriaTextFieldProps } from 'react-aria-components';
import { cx } from './class-names';
import {
  FIELD_CLASS,
  FieldDescription,
  FieldErrorText,
  FieldLabel,
  hasError,
  INPUT_BOX_CLASS,
  INPUT_FOCUS_CLASS,
  type ErrorMessage,
} from './field';

export interface TextFieldProps extends Omit<
  AriaTextFieldProps,
  'className' | 'children' | 'render' | 'style' | 'type' | 'isInvalid'
> {
  /** Visible label, already translated. */
  label: string;
  /** Text unless told; `url`, `tel` and `search` also work for the right mobile keyboard. */
  type?: 'text' | 'email' | 'password' | 'url' | 'tel' | 'search';
  /** Help text under the field, already translated. */
  description?: string;
  /** Translated error(s), e.g. from the action's validation result; marks the field invalid. */
  errorMessage?: ErrorMessage;
  placeholder?: string;
  /** Layout only. */
  className?: string;
}

/**
 * A labelled text input. With `name` it posts like a plain `<input>` inside an HTML or React Router
 * `<Form method="post">`; `isRequired` blocks the submit in the browser and the message is ours.
 */
export function TextField({
  label,
  type = 'text',
  description,
  errorMessage,
  placeholder,
  className,
  isRequired,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      type={type}
      isRequired={isRequired}
      isInvalid={hasError(errorMessage) || undefined}
      className={cx(FIELD_CLASS, className)}
    >
      <FieldLabel isRequired={isRequired}>{label}</FieldLabel>
      <Input
        placeholder={placeholder}
        className={cx(INPUT_BOX_CLASS, INPUT_FOCUS_CLASS, 'px-3 placeholder:text-gray-500')}
      />
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText errorMessage={errorMessage} kind={type === 'email' ? 'email' : undefined} />
    </AriaTextField>
  );
}
