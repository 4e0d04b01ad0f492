/** Ordo's design system: react-aria-components styled with Tailwind, words from the `ui` namespace. */
export {
  Button,
  LinkButton,
  buttonClass,
  type ButtonProps,
  type LinkButtonProps,
  type ButtonVariant,
  type ButtonSize,
} from './button';
export { Spinner, type SpinnerProps } from './spinner';
export { TextField, type TextFieldProps } from './text-field';
export { ProposeField, type ProposeFieldProps } from './propose-field';
export { Select, type SelectProps, type SelectItem } from './select';
export { NativeSelect, type NativeSelectProps } from './native-select';
export { SearchInput, type SearchInputProps } from './search-input';
export {
  ComboBox,
  visibleOptions,
  COMBO_BOX_OPTION_LIMIT,
  COMBO_BOX_MIN_QUERY_LENGTH,
  type ComboBoxProps,
  type VisibleOptions,
} from './combo-box';
export {
  EntityPicker,
  SEARCH_DEBOUNCE_MS,
  type EntityPickerProps,
  type PickerOption,
  type PickerOptions,
} from './entity-picker';
export { ListPager, pageFromUrl, DEFAULT_PAGE_SIZE, type ListPagerProps } from './list-pager';
export {
  ListPage,
  ListFilters,
  ListTable,
  useListUrl,
  type ListPageProps,
  type ListFiltersProps,
  type ListTableProps,
  type ListUrl,
} from './list-page';
export {
  RecordForm,
  FormSection,
  useFormDirty,
  useLeaveGuard,
  peopleItems,
  recordFields,
  type RecordFormProps,
  type FormSectionProps,
} from './record-form';
export { SortableTable, type SortableTableProps, type TableColumn, type SortDescriptor } from './table';
export { Dialog, DialogTrigger, ConfirmDialog, type DialogProps, type ConfirmDialogProps } from './dialog';
export { Menu, type MenuProps, type MenuItemDef } from './menu';
export { Tabs, type TabsProps, type TabItem } from './tabs';
export { WidgetBoundary } from './widget-boundary';
export {
  DatePicker,
  Calendar,
  dateValueOf,
  dateTimeValueOf,
  wallClockOf,
  type DatePickerProps,
  type CalendarProps,
  type DateValue,
} from './date-picker';
export {
  ToastProvider,
  useToast,
  toastDuration,
  TOAST_DURATION_MS,
  type ToastApi,
  type ToastKind,
  type ToastOptions,
} from './toast';
export type { ErrorMessage } from './field';
export { DateTime, useTenantClock } from './date-time';
export { isoWeek, type IsoWeek, type PlainDate } from '~/core/calendar/dates';
export {
  formatNumber,
  formatDate,
  formatDateTime,
  tenantTimeZone,
  type DateFormat,
  type FormatNumberOptions,
  type FormatDateOptions,
} from '~/core/i18n/number-format';
