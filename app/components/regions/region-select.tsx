import { useTranslation } from 'react-i18next';
import { Select } from '~/app/components/ui';

/**
 * The region a user, object or project belongs to (issue 36 item 4; decision 067): the register's
 * active names and the record's own. Nothing without choices (the regions module off), so the
 * form then sends no `region` and the saved one stays.
 */
export function RegionSelect({
  choices,
  value,
  errorMessage,
  isDisabled,
  className,
  name = 'region',
}: {
  choices: string[];
  value: string | null | undefined;
  errorMessage?: string[];
  isDisabled?: boolean;
  className?: string;
  name?: string;
}) {
  const { t } = useTranslation('regions');
  if (!choices.length) return null;
  return (
    <Select
      name={name}
      label={t('field')}
      isDisabled={isDisabled}
      defaultSelectedKey={value ?? ''}
      items={[{ id: '', label: t('none') }, ...choices.map((c) => ({ id: c, label: c }))]}
      errorMessage={errorMessage}
      className={className}
    />
  );
}
