import type { ReactNode } from 'react';
import {
  FieldError,
  Label,
  ListBoxItem,
  Text,
  type ListBoxItemProps,
  type ValidationResult,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { CheckIcon } from './icons';
import { cx, TOUCH_HEIGHT } from './class-names';

/**
 * Building blocks shared by the form fields (TextField, Select, ComboBox, DatePicker), so a label,
 * a help text and an error look and behave the same everywhere.
 */

/** A translated error, or several (e.g. every zod issue for the field). */
export type ErrorMessage = string | readonly string[];

export { FIELD_CLASS, INPUT_BOX_CLASS, INPUT_FOCUS_CLASS, INNER_BUTTON_CLASS, POPOVER_CLASS } from './field-classes';

export function FieldLabel({ children, isRequired }: { children: ReactNode; isRequired?: boolean }) {
  return (
    <Label className="text-sm font-medium text-gray-900">
      {children}
      {/* Required is announced from the input's `required`; the star is only for the eye. */}
      {isRequired && (
        <span aria-hidden="true" className="ms-0.5 text-red-700">
          *
        </span>
      )}
    </Label>
  );
}

export function FieldDescription({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <Text slot="description" className="text-sm text-gray-600">
      {children}
    </Text>
  );
}

/**
 * The field's error: the caller's translated message(s) when given (server or schema errors),
 * otherwise a translated message for the browser's own check (required, e-mail, range).
 */
export function FieldErrorText({ errorMessage, kind }: { errorMessage?: ErrorMessage; kind?: 'email' }) {
  const validationText = useValidationText(kind);
  const messages = errorMessage === undefined ? [] : typeof errorMessage === 'string' ? [errorMessage] : errorMessage;
  return (
    <FieldError className="text-sm text-red-700">
      {messages.length > 0
        ? messages.map((message) => (
            <span key={message} className="block">
              {message}
            </span>
          ))
        : validationText}
    </FieldError>
  );
}

/** True when there is something to show, so the field can be marked invalid. */
export function hasError(errorMessage: ErrorMessage | undefined): boolean {
  return typeof errorMessage === 'string' ? errorMessage.length > 0 : (errorMessage?.length ?? 0) > 0;
}

function useValidationText(kind: 'email' | undefined) {
  const { t } = useTranslation('ui');
  return ({ validationDetails, validationErrors }: ValidationResult): string => {
    if (validationDetails.valueMissing) return t('fieldRequired');
    if (validationDetails.typeMismatch && kind === 'email') return t('invalidEmail');
    if (validationDetails.rangeUnderflow || validationDetails.rangeOverflow) return t('valueOutOfRange');
    if (validationDetails.typeMismatch || validationDetails.badInput || validationDetails.patternMismatch) {
      return t('invalidValue');
    }
    // A `validate` function supplied by the caller returns already-translated text.
    return validationErrors.length > 0 ? validationErrors.join(' ') : t('invalidValue');
  };
}

/** One option of a Select or ComboBox list, with a check mark on the chosen one. */
export function OptionItem({ label, ...props }: Omit<ListBoxItemProps, 'children' | 'className'> & { label: string }) {
  return (
    <ListBoxItem
      {...props}
      textValue={label}
      className={cx(
        'flex cursor-default items-center gap-2 px-3 py-2 text-base text-gray-900 outline-none select-none sm:text-sm',
        TOUCH_HEIGHT.md,
        'data-focused:bg-blue-50 data-hovered:bg-gray-50 data-selected:font-semibold',
        'data-disabled:cursor-not-allowed data-disabled:text-gray-400',
      )}
    >
      {({ isSelected }) => (
        <>
          <span className="flex-1 truncate">{label}</span>
          {isSelected && <CheckIcon className="shrink-0 text-blue-700" />}
        </>
      )}
    </ListBoxItem>
  );
}
