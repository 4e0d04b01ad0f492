import { useId, useState } from 'react';
import { Input, TextField as AriaTextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Button } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import {
  FIELD_CLASS,
  FieldDescription,
  FieldErrorText,
  FieldLabel,
  INPUT_BOX_CLASS,
  INPUT_FOCUS_CLASS,
  type ErrorMessage,
} from '~/app/components/ui/field';

/** Spec section 5: a tag has at least 2 characters, letters and digits only (the server checks too). */
const TAG = /^[\p{L}\p{N}]{2,50}$/u;

export interface TagInputProps {
  label: string;
  /** Each tag is posted as its own `name` field. */
  name: string;
  defaultValue?: readonly string[];
  isDisabled?: boolean;
  errorMessage?: ErrorMessage;
  className?: string;
}

/**
 * Tags as removable chips and a field to add one (Enter or the Add button). A tag already there,
 * in any case, is not added twice; a tag that breaks the rule says why under the field.
 */
export function TagInput({ label, name, defaultValue = [], isDisabled, errorMessage, className }: TagInputProps) {
  const { t } = useTranslation('suppliers');
  const { t: tc } = useTranslation();
  const [tags, setTags] = useState<string[]>([...defaultValue]);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const listId = useId();

  const add = () => {
    const tag = text.trim();
    if (!tag) return;
    if (!TAG.test(tag)) return setProblem(tc('ERROR_TAG_INVALID'));
    if (!tags.some((x) => x.toLowerCase() === tag.toLowerCase())) setTags([...tags, tag]);
    setText('');
    setProblem(null);
  };

  return (
    <div className={cx(FIELD_CLASS, className)}>
      {tags.map((tag) => (
        <input key={tag} type="hidden" name={name} value={tag} />
      ))}
      <AriaTextField
        value={text}
        onChange={(v) => {
          setText(v);
          setProblem(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
        isDisabled={isDisabled}
        isInvalid={Boolean(problem || (errorMessage && errorMessage.length)) || undefined}
        aria-describedby={tags.length ? listId : undefined}
        className={FIELD_CLASS}
      >
        <FieldLabel>{label}</FieldLabel>
        <div className="flex gap-2">
          <Input
            placeholder={t('tags.placeholder')}
            className={cx(INPUT_BOX_CLASS, INPUT_FOCUS_CLASS, 'flex-1 px-3 placeholder:text-gray-500')}
          />
          <Button variant="secondary" onPress={add} isDisabled={isDisabled || !text.trim()}>
            {t('tags.add')}
          </Button>
        </div>
        <FieldDescription>{t('tags.help')}</FieldDescription>
        <FieldErrorText errorMessage={problem ?? errorMessage} />
      </AriaTextField>
      {tags.length ? (
        <ul id={listId} aria-label={t('tags.list')} className="flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-slate-100 ps-3 text-sm text-slate-800"
            >
              {tag}
              {isDisabled ? (
                <span className="pe-3" />
              ) : (
                <Button
                  variant="ghost"
                  size="sm"
                  isIconOnly
                  aria-label={t('tags.remove', { tag })}
                  onPress={() => setTags(tags.filter((x) => x !== tag))}
                >
                  ×
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
