import {
  Button as AriaButton,
  ListBox,
  Popover,
  Select as AriaSelect,
  SelectValue,
  type Key,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { cx, FOCUS_RING } from './class-names';
import {
  FIELD_CLASS,
  FieldDescription,
  FieldErrorText,
  FieldLabel,
  hasError,
  INPUT_BOX_CLASS,
  OptionItem,
  POPOVER_CLASS,
  type ErrorMessage,
} from './field';
import { ChevronDownIcon } from './icons';

/** An option of a Select or ComboBox; `label` is already translated. */
export interface SelectItem {
  id: Key;
  label: string;
  isDisabled?: boolean;
}

export interface SelectProps {
  /** Visible label, already translated. */
  label: string;
  items: readonly SelectItem[];
  /** Form field name: the chosen item's `id` is posted under it. */
  name?: string;
  selectedKey?: Key | null;
  defaultSelectedKey?: Key | null;
  onSelectionChange?: (key: Key | null) => void;
  /** Shown when nothing is chosen; "Select…" unless told. */
  placeholder?: string;
  description?: string;
  errorMessage?: ErrorMessage;
  isRequired?: boolean;
  isDisabled?: boolean;
  autoFocus?: boolean;
  /** Layout only. */
  className?: string;
}

/**
 * A dropdown to pick one of a short list (for long lists with typing use ComboBox). Posts the
 * chosen `id` under `name` from a plain `<form>`.
 */
export function Select({
  label,
  items,
  selectedKey,
  defaultSelectedKey,
  onSelectionChange,
  placeholder,
  description,
  errorMessage,
  isRequired,
  className,
  ...props
}: SelectProps) {
  const { t } = useTranslation('ui');
  return (
    <AriaSelect
      {...props}
      value={selectedKey}
      defaultValue={defaultSelectedKey}
      onChange={onSelectionChange}
      isRequired={isRequired}
      isInvalid={hasError(errorMessage) || undefined}
      placeholder={placeholder ?? t('selectPlaceholder')}
      disabledKeys={items.filter((item) => item.isDisabled).map((item) => item.id)}
      className={cx(FIELD_CLASS, className)}
    >
      <FieldLabel isRequired={isRequired}>{label}</FieldLabel>
      <AriaButton
        className={cx(
          INPUT_BOX_CLASS,
          FOCUS_RING,
          'flex cursor-default items-center justify-between gap-2 px-3 text-start',
          'data-pressed:bg-gray-50',
        )}
      >
        <SelectValue className="flex-1 truncate data-placeholder:text-gray-500" />
        <ChevronDownIcon className="shrink-0 text-gray-600" />
      </AriaButton>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText errorMessage={errorMessage} />
      <Popover className={POPOVER_CLASS}>
        <ListBox items={items} className="max-h-80 overflow-y-auto py-1 outline-none">
          {(item) => <OptionItem id={item.id} label={item.label} />}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
