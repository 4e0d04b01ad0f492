import { useId, useMemo, useState } from 'react';
import {
  Button as AriaButton,
  ComboBox as AriaComboBox,
  Group,
  Input,
  ListBox,
  Popover,
  useFilter,
  type Key,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import {
  FIELD_CLASS,
  FieldDescription,
  FieldErrorText,
  FieldLabel,
  hasError,
  INNER_BUTTON_CLASS,
  INPUT_BOX_CLASS,
  OptionItem,
  POPOVER_CLASS,
  type ErrorMessage,
} from './field';
import { ChevronDownIcon } from './icons';
import { formatNumber } from '~/core/i18n/number-format';
import type { SelectItem } from './select';

/** Spec section 9: select lists above 200 options are cut to 200 until 2 characters are typed. */
export const COMBO_BOX_OPTION_LIMIT = 200;
export const COMBO_BOX_MIN_QUERY_LENGTH = 2;

export interface VisibleOptions<T> {
  /** What the list shows, in the caller's order. */
  shown: T[];
  /** How many options match the query (all of them when there is no query). */
  total: number;
  /** True when `shown` was cut to the limit, so the hint should be shown. */
  isCut: boolean;
}

/**
 * The options a ComboBox shows for a query: the matches, cut to the first 200 while the query is
 * shorter than 2 characters. The chosen option always stays in the list, so the field can keep
 * showing its label.
 */
export function visibleOptions<T extends { id: Key; label: string }>(
  items: readonly T[],
  query: string,
  matches: (label: string, query: string) => boolean,
  selectedKey: Key | null = null,
): VisibleOptions<T> {
  const matching = query ? items.filter((item) => matches(item.label, query)) : [...items];
  const isCut = query.trim().length < COMBO_BOX_MIN_QUERY_LENGTH && matching.length > COMBO_BOX_OPTION_LIMIT;
  const shown = isCut ? matching.slice(0, COMBO_BOX_OPTION_LIMIT) : matching;
  if (selectedKey != null && !shown.some((item) => item.id === selectedKey)) {
    const selected = items.find((item) => item.id === selectedKey);
    if (selected) shown.unshift(selected);
  }
  return { shown, total: matching.length, isCut };
}

export interface ComboBoxProps {
  /** Visible label, already translated. */
  label: string;
  items: readonly SelectItem[];
  /** Form field name: the chosen item's `id` is posted under it. */
  name?: string;
  selectedKey?: Key | null;
  defaultSelectedKey?: Key | null;
  onSelectionChange?: (key: Key | null) => void;
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
 * A text field with a filtered list of options (customers, articles, objects). Matching ignores
 * case and accents. Long lists follow the spec's 200-option rule with a hint in the list.
 */
export function ComboBox({
  label,
  items,
  selectedKey,
  defaultSelectedKey = null,
  onSelectionChange,
  placeholder,
  description,
  errorMessage,
  isRequired,
  className,
  ...props
}: ComboBoxProps) {
  const { t } = useTranslation('ui');
  const { contains } = useFilter({ sensitivity: 'base' });
  const hintId = useId();
  const [query, setQuery] = useState('');
  // Opening with the button (or on focus) lists everything, not just what the input text matches.
  const [isShowingAll, setShowingAll] = useState(false);
  const [ownKey, setOwnKey] = useState<Key | null>(defaultSelectedKey);
  const currentKey = selectedKey !== undefined ? selectedKey : ownKey;

  const { shown, total, isCut } = useMemo(
    () => visibleOptions(items, isShowingAll ? '' : query, contains, currentKey),
    [items, isShowingAll, query, contains, currentKey],
  );

  return (
    <AriaComboBox
      {...props}
      items={shown}
      value={selectedKey}
      defaultValue={defaultSelectedKey}
      onChange={(key) => {
        setOwnKey(key);
        onSelectionChange?.(key);
      }}
      onInputChange={(text) => {
        setQuery(text);
        setShowingAll(false);
      }}
      onOpenChange={(isOpen, trigger) => {
        if (isOpen && trigger !== 'input') setShowingAll(true);
      }}
      formValue="key"
      isRequired={isRequired}
      isInvalid={hasError(errorMessage) || undefined}
      disabledKeys={items.filter((item) => item.isDisabled).map((item) => item.id)}
      className={cx(FIELD_CLASS, className)}
    >
      <FieldLabel isRequired={isRequired}>{label}</FieldLabel>
      <Group
        className={cx(
          INPUT_BOX_CLASS,
          'flex items-center overflow-hidden',
          'data-focus-within:border-blue-600 data-focus-within:ring-2 data-focus-within:ring-blue-600/30',
        )}
      >
        <Input
          placeholder={placeholder}
          className="min-w-0 flex-1 self-stretch bg-transparent px-3 outline-none placeholder:text-gray-500"
        />
        <AriaButton aria-label={t('showOptions')} className={INNER_BUTTON_CLASS}>
          <ChevronDownIcon />
        </AriaButton>
      </Group>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText errorMessage={errorMessage} />
      <Popover className={cx(POPOVER_CLASS, 'flex flex-col')}>
        <ListBox
          aria-describedby={isCut ? hintId : undefined}
          className="max-h-80 overflow-y-auto py-1 outline-none"
          renderEmptyState={() => <p className="px-3 py-2 text-sm text-gray-600">{t('noResults')}</p>}
        >
          {(item: SelectItem) => <OptionItem id={item.id} label={item.label} />}
        </ListBox>
        {isCut && (
          <p id={hintId} className="border-t border-gray-200 bg-gray-50 px-3 py-2 text-sm text-gray-700">
            {t('optionsCutHint', {
              shown: formatNumber(COMBO_BOX_OPTION_LIMIT, { decimals: 0 }),
              total: formatNumber(total, { decimals: 0 }),
              minChars: COMBO_BOX_MIN_QUERY_LENGTH,
            })}
          </p>
        )}
      </Popover>
    </AriaComboBox>
  );
}
