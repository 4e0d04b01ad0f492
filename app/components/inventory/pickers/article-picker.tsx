import { useTranslation } from 'react-i18next';
import { EntityPicker, type EntityPickerProps } from '~/app/components/ui/entity-picker';

export type ArticlePickerProps = Omit<EntityPickerProps, 'source' | 'label' | 'params' | 'warning'> & {
  /** Visible label; "Article" unless told. */
  label?: string;
  /** Only articles of this group; the picker then says that filtering is on. */
  groupId?: string | null;
};

/**
 * Picks an active article ("10001 – Rörelsedetektor PIR", its unit beside it), searching article
 * ID, title and E-number on the server as you type (spec section 5: only active articles can be
 * picked, optionally by group, with the warning SELECT_ARTICLE_FILTERING_IS_ACTIVE). Posts the
 * article's id under `name`.
 */
export function ArticlePicker({ label, groupId, ...props }: ArticlePickerProps) {
  const { t } = useTranslation('articles');
  const { t: tc } = useTranslation();
  return (
    <EntityPicker
      {...props}
      label={label ?? t('picker.label')}
      source="/inventory/articles/options"
      params={groupId ? { groupId } : undefined}
      warning={groupId ? tc('SELECT_ARTICLE_FILTERING_IS_ACTIVE') : undefined}
    />
  );
}
