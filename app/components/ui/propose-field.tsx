import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { cx } from './class-names';
import type { ErrorMessage } from './field';
import { TextField } from './text-field';

export interface ProposeFieldProps {
  label: string;
  /** The input's name: the form posts the typed or proposed value under it. */
  name: string;
  defaultValue?: string;
  /**
   * Where the button asks for the next free number: a GET answering `{id}` (a resource route or an
   * /api call). A function gets the field's current value (e.g. to keep its length); `null`
   * disables the button (e.g. until the object the number depends on is chosen).
   */
  proposeUrl?: string | null | ((current: string) => string | null);
  /** A number already proposed by the page: the button fills it in without asking the server. */
  proposal?: string | null;
  proposeLabel: string;
  /** Without the button (e.g. an existing record's number is only retyped). Default true. */
  canPropose?: boolean;
  isDisabled?: boolean;
  isRequired?: boolean;
  errorMessage?: ErrorMessage;
  description?: string;
  autoFocus?: boolean;
  className?: string;
}

/**
 * A number field with a "propose" button beside it that fills in the next free number. The field
 * stays editable; a failed request says so under the field. Disabled fields have no button.
 */
export function ProposeField({
  label,
  name,
  defaultValue = '',
  proposeUrl,
  proposal,
  proposeLabel,
  canPropose = true,
  isDisabled,
  isRequired,
  errorMessage,
  description,
  autoFocus,
  className,
}: ProposeFieldProps) {
  const { t } = useTranslation('ui');
  const [value, setValue] = useState(defaultValue);
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const url = typeof proposeUrl === 'function' ? proposeUrl(value) : proposeUrl;

  async function propose() {
    if (proposal) {
      setValue(proposal);
      return;
    }
    if (!url) return;
    setPending(true);
    setFailed(false);
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(String(res.status));
      setValue(((await res.json()) as { id: string }).id);
    } catch {
      setFailed(true);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className={cx('flex items-start gap-2', className)}>
      <TextField
        name={name}
        label={label}
        value={value}
        onChange={setValue}
        isRequired={isRequired}
        isDisabled={isDisabled}
        autoFocus={autoFocus}
        errorMessage={errorMessage ?? (failed ? t('proposeFailed') : undefined)}
        description={description}
        className="flex-1"
      />
      {canPropose && !isDisabled ? (
        <Button
          variant="secondary"
          className="mt-6"
          onPress={() => void propose()}
          isPending={pending}
          isDisabled={!proposal && !url}
        >
          {proposeLabel}
        </Button>
      ) : null}
    </div>
  );
}
