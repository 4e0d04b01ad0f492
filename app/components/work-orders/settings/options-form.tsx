import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Select, TextField } from '~/app/components/ui';
import { REQUIRED_FIELDS, WORK_ORDER_MODES, type WorkOrderSettings } from '~/core/work-orders/settings/settings.types';
import { ErrorText, Section, useSectionSave } from './shared';

type Options = Pick<WorkOrderSettings, 'requiredFields' | 'mode' | 'numberPrefix' | 'nextNumber' | 'timeLockDay'>;

/**
 * Which work-order fields are required (spec section 5), the work-order mode (section 9) and the
 * numbering: a prefix and the number the next work order gets; the day of the next month on which
 * time reports lock (spec section 4). Posted as a plain form.
 */
export function OptionsForm({ options, canEdit }: { options: Options; canEdit: boolean }) {
  const { t } = useTranslation('workorders');
  const save = useSectionSave(() => undefined);
  const [prefix, setPrefix] = useState(options.numberPrefix);
  const [next, setNext] = useState(String(options.nextNumber));
  const disabled = !canEdit;
  return (
    <Section id="wo-options" title={t('settings.options.title')} intro={t('settings.options.intro')}>
      <save.fetcher.Form method="post" className="mt-4 grid gap-4" noValidate key={JSON.stringify(options)}>
        <input type="hidden" name="intent" value="options" />
        <fieldset>
          <legend className="text-sm font-medium text-gray-900">{t('settings.options.requiredFields')}</legend>
          <div className="mt-2 grid gap-x-6 sm:grid-cols-2">
            {REQUIRED_FIELDS.map((f) => (
              <label key={f} className="flex min-h-10 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="requiredFields"
                  value={f}
                  defaultChecked={options.requiredFields.includes(f)}
                  disabled={disabled}
                  className="size-4 accent-brand-600"
                />
                {t(`settings.field.${f}`)}
              </label>
            ))}
          </div>
          <ErrorText messages={save.err('requiredFields')} />
        </fieldset>
        <Select
          name="mode"
          label={t('settings.options.mode')}
          defaultSelectedKey={options.mode}
          isDisabled={disabled}
          items={WORK_ORDER_MODES.map((m) => ({ id: m, label: t(`settings.mode.${m}`) }))}
          description={t('settings.options.modeHelp')}
          errorMessage={save.err('mode')}
          className="max-w-xs"
        />
        <div className="flex flex-wrap gap-4">
          <TextField
            name="numberPrefix"
            label={t('settings.options.numberPrefix')}
            value={prefix}
            onChange={setPrefix}
            maxLength={10}
            isDisabled={disabled}
            description={t('settings.options.numberPrefixHelp')}
            errorMessage={save.err('numberPrefix')}
            className="w-48"
          />
          <TextField
            name="nextNumber"
            label={t('settings.options.nextNumber')}
            value={next}
            onChange={setNext}
            inputMode="numeric"
            isRequired
            isDisabled={disabled}
            errorMessage={save.err('nextNumber')}
            className="w-48"
          />
        </div>
        <p className="text-sm text-slate-700" aria-live="polite">
          {t('settings.options.preview', { number: `${prefix.trim()}${next.trim()}` })}
        </p>
        <TextField
          name="timeLockDay"
          label={t('settings.options.timeLockDay')}
          defaultValue={options.timeLockDay === null ? '' : String(options.timeLockDay)}
          inputMode="numeric"
          isDisabled={disabled}
          description={t('settings.options.timeLockDayHelp')}
          errorMessage={save.err('timeLockDay')}
          className="w-48"
        />
        {canEdit ? (
          <div>
            <Button type="submit" variant="primary" isPending={save.busy}>
              {t('settings.options.save')}
            </Button>
          </div>
        ) : null}
      </save.fetcher.Form>
    </Section>
  );
}
