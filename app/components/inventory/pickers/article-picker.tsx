import { useTranslation } from 'react-i18next';
import { SUPPLIER_OPTION_PREFIX } from '~/core/supplier-catalogues/catalogue.schema';
import { EntityPicker, type EntityPickerProps } from '~/app/components/ui/entity-picker';

export type ArticlePickerProps = Omit<EntityPickerProps, 'source' | 'label' | 'params' | 'warning'> & {
  /** Visible label; "Article" unless told. */
  label?: string;
  /** Only articles of this group; the picker then says that filtering is on. */
  groupId?: string | null;
  /**
   * A row's picker (work order, proposal): up to 10 articles of the suppliers' price lists follow
   * ours, marked as such; their ids start with `si:` (SUPPLIER_OPTION_PREFIX).
   */
  supplierInventory?: boolean;
};

/**
 * Picks an active article ("10001 – Rörelsedetektor PIR", its unit beside it), searching article
 * ID, title and E-number on the server as you type (spec section 5: only active articles can be
 * picked, optionally by group, with the warning SELECT_ARTICLE_FILTERING_IS_ACTIVE). Posts the
 * article's id under `name`.
 */
export function ArticlePicker({ label, groupId, supplierInventory, ...props }: ArticlePickerProps) {
  const { t } = useTranslation('articles');
  const { t: tc } = useTranslation();
  const { t: ts } = useTranslation('suppliercatalogues');
  const params = { ...(groupId ? { groupId } : {}), ...(supplierInventory ? { supplierInventory: '1' } : {}) };
  return (
    <EntityPicker
      {...props}
      label={label ?? t('picker.label')}
      source="/inventory/articles/options"
      params={Object.keys(params).length ? params : undefined}
      warning={groupId ? tc('SELECT_ARTICLE_FILTERING_IS_ACTIVE') : undefined}
      optionLabel={(o) =>
        isSupplierOption(o.id)
          ? `${o.label} · ${ts('picker.fromSupplier', { supplier: o.description ?? '' })}`
          : o.description
            ? `${o.label} · ${o.description}`
            : o.label
      }
    />
  );
}

/** A supplier-catalogue article's option (its id after the prefix is the catalogue article's). */
export const isSupplierOption = (id: string) => id.startsWith(SUPPLIER_OPTION_PREFIX);
