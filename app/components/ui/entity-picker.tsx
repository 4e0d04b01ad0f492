import { useEffect, useId, useRef, useState } from 'react';
import {
  Button as AriaButton,
  ComboBox as AriaComboBox,
  Group,
  Input,
  ListBox,
  Popover,
  type Key,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
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
import { Spinner } from './spinner';
import { COMBO_BOX_MIN_QUERY_LENGTH, COMBO_BOX_OPTION_LIMIT } from './combo-box';

/** Spec section 9: search fields wait 350 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 350;

export interface PickerOption {
  id: string;
  label: string;
  description?: string;
}

/** What a picker's resource route answers: at most 200 options and how many matched. */
export interface PickerOptions {
  options: PickerOption[];
  total: number;
}

export interface EntityPickerProps {
  /** Visible label, already translated. */
  label: string;
  /** Form field name: the chosen option's id is posted under it (empty when none). */
  name?: string;
  /** Resource route answering `GET ?q=…&…params` with PickerOptions. */
  source: string;
  /** Extra query parameters (a customer to limit objects to, an article group). */
  params?: Record<string, string>;
  defaultSelected?: PickerOption | null;
  onSelectionChange?: (option: PickerOption | null) => void;
  placeholder?: string;
  description?: string;
  /** A notice under the field that is not an error (SELECT_ARTICLE_FILTERING_IS_ACTIVE). */
  warning?: string;
  errorMessage?: ErrorMessage;
  isRequired?: boolean;
  isDisabled?: boolean;
  autoFocus?: boolean;
  className?: string;
  /** How an option reads in the list ("label · description" unless told). */
  optionLabel?: (option: PickerOption) => string;
}

/**
 * Search-as-you-type over a register (customers, objects, articles): the server searches with its
 * index and answers at most 200 options; while fewer than 2 characters are typed a longer list is
 * cut with the spec's hint. The chosen option stays shown and is posted as `name`.
 */
export function EntityPicker({
  label,
  name,
  source,
  params,
  defaultSelected = null,
  onSelectionChange,
  placeholder,
  description,
  warning,
  errorMessage,
  isRequired,
  className,
  optionLabel = (item) => (item.description ? `${item.label} · ${item.description}` : item.label),
  ...props
}: EntityPickerProps) {
  const { t } = useTranslation('ui');
  const fetcher = useFetcher<PickerOptions>();
  const hintId = useId();
  const [selected, setSelected] = useState<PickerOption | null>(defaultSelected);
  const [inputValue, setInputValue] = useState(defaultSelected?.label ?? '');
  const [query, setQuery] = useState<string | null>(null);
  const paramsKey = JSON.stringify(params ?? {});
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { load } = fetcher;

  // Load after typing stops (350 ms); opening the list loads at once.
  useEffect(() => {
    if (query === null) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const search = new URLSearchParams({ ...(JSON.parse(paramsKey) as Record<string, string>), q: query });
      void load(`${source}?${search}`);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer.current);
  }, [query, paramsKey, source, load]);

  const options = fetcher.data?.options ?? [];
  const total = fetcher.data?.total ?? 0;
  const items = selected && !options.some((o) => o.id === selected.id) ? [selected, ...options] : options;
  const isCut = (query ?? '').trim().length < COMBO_BOX_MIN_QUERY_LENGTH && total > options.length;

  const choose = (key: Key | null) => {
    const option = key == null ? null : (items.find((o) => o.id === key) ?? null);
    setSelected(option);
    setInputValue(option?.label ?? '');
    onSelectionChange?.(option);
  };

  return (
    <AriaComboBox
      {...props}
      items={items}
      selectedKey={selected?.id ?? null}
      onSelectionChange={choose}
      inputValue={inputValue}
      onInputChange={(text) => {
        setInputValue(text);
        setQuery(text);
        if (text === '' && selected) choose(null);
      }}
      onOpenChange={(isOpen, trigger) => {
        if (isOpen && trigger !== 'input' && fetcher.state === 'idle' && !fetcher.data) setQuery('');
      }}
      menuTrigger="focus"
      allowsEmptyCollection
      isRequired={isRequired}
      isInvalid={hasError(errorMessage) || undefined}
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
        {fetcher.state !== 'idle' ? <Spinner className="me-2" /> : null}
        <AriaButton aria-label={t('showOptions')} className={INNER_BUTTON_CLASS}>
          <ChevronDownIcon />
        </AriaButton>
      </Group>
      {name ? <input type="hidden" name={name} value={selected?.id ?? ''} /> : null}
      <FieldDescription>{description}</FieldDescription>
      {warning ? (
        <p role="status" className="text-sm text-amber-800">
          {warning}
        </p>
      ) : null}
      <FieldErrorText errorMessage={errorMessage} />
      <Popover className={cx(POPOVER_CLASS, 'flex flex-col')}>
        <ListBox
          aria-describedby={isCut ? hintId : undefined}
          className="max-h-80 overflow-y-auto py-1 outline-none"
          renderEmptyState={() => (
            <p className="px-3 py-2 text-sm text-gray-600">
              {fetcher.state !== 'idle' || !fetcher.data ? t('loading') : t('noResults')}
            </p>
          )}
        >
          {(item: PickerOption) => <OptionItem id={item.id} label={optionLabel(item)} />}
        </ListBox>
        {isCut && (
          <p id={hintId} className="border-t border-gray-200 bg-gray-50 px-3 py-2 text-sm text-gray-700">
            {t('optionsCutHint', {
              shown: formatNumber(Math.min(options.length, COMBO_BOX_OPTION_LIMIT), { decimals: 0 }),
              total: formatNumber(total, { decimals: 0 }),
              minChars: COMBO_BOX_MIN_QUERY_LENGTH,
            })}
          </p>
        )}
      </Popover>
    </AriaComboBox>
  );
}
