import { useTranslation } from 'react-i18next';
import { ProposeField, RecordForm, recordFields, Select, TextField } from '~/app/components/ui';
import { ContactsEditor, type ContactDraft } from './contacts-editor';
import { TagInput } from './tag-input';

export interface SupplierDraft {
  number: string;
  title: string;
  name: string | null;
  iban: string | null;
  bic: string | null;
  erpAccount: string | null;
  organizationNumber: string | null;
  peppolId: string | null;
  tags: string[];
  status: 'active' | 'inactive';
  contacts: ContactDraft[];
}

export const EMPTY_SUPPLIER: SupplierDraft = {
  number: '',
  title: '',
  name: null,
  iban: null,
  bic: null,
  erpAccount: null,
  organizationNumber: null,
  peppolId: null,
  tags: [],
  status: 'active',
  contacts: [],
};

/** Reads the form's supplier fields (empty text is sent as empty: the server turns it into "none"). */
export function supplierFromForm(form: FormData) {
  const text = (k: string) => String(form.get(k) ?? '');
  return {
    number: text('number').trim() || undefined,
    title: text('title'),
    name: text('name'),
    iban: text('iban'),
    bic: text('bic'),
    erpAccount: text('erpAccount'),
    organizationNumber: text('organizationNumber'),
    peppolId: text('peppolId'),
    tags: form.getAll('tags').map(String),
    status: text('status') || 'active',
  };
}

/** An IBAN shown in groups of four, as on paper. */
const grouped = (iban: string | null) => (iban ? iban.replace(/(.{4})(?=.)/g, '$1 ') : '');

export interface SupplierFormProps {
  supplier: SupplierDraft;
  /** Field errors of the last save, by field (`iban`, `contacts.0.email`), already translated. */
  errors: (field: string) => string[] | undefined;
  canEdit: boolean;
  /** Shows the tag field (the supplier_tags app module). */
  showTags: boolean;
  /** Where the propose button asks for the next free number (a resource route). */
  proposeUrl: string;
  submitLabel: string;
  /** What changes when a save lands (the supplier's update time; none for a new one). */
  savedAs?: string;
  /** Extra buttons next to save (delete). */
  children?: React.ReactNode;
}

/**
 * The supplier's fields (spec section 3: number, title, name, IBAN, BIC, default ERP account,
 * tags, status) and its contacts, saved together. The number can be proposed (next free number).
 */
export function SupplierForm({
  supplier,
  errors,
  canEdit,
  showTags,
  proposeUrl,
  submitLabel,
  savedAs,
  children,
}: SupplierFormProps) {
  const { t } = useTranslation('suppliers');
  const disabled = !canEdit;
  const field = recordFields(errors, disabled);
  return (
    <RecordForm canEdit={canEdit} submitLabel={submitLabel} actions={children} savedAs={savedAs}>
      <div className="grid gap-4 sm:grid-cols-2">
        <ProposeField
          {...field('number')}
          label={t('field.number')}
          defaultValue={supplier.number}
          proposeUrl={proposeUrl}
          proposeLabel={t('field.number.propose')}
          description={supplier.number ? undefined : t('field.number.help')}
        />
        <TextField {...field('title')} label={t('field.title')} defaultValue={supplier.title} isRequired />
        <TextField
          {...field('name')}
          label={t('field.name')}
          description={t('field.name.help')}
          defaultValue={supplier.name ?? ''}
        />
        <Select
          {...field('status')}
          label={t('field.status')}
          defaultSelectedKey={supplier.status}
          items={[
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
          ]}
        />
        <TextField
          {...field('iban')}
          label={t('field.iban')}
          description={t('field.iban.help')}
          defaultValue={grouped(supplier.iban)}
          autoComplete="off"
        />
        <TextField
          {...field('bic')}
          label={t('field.bic')}
          description={t('field.bic.help')}
          defaultValue={supplier.bic ?? ''}
          autoComplete="off"
        />
        <TextField
          {...field('erpAccount')}
          label={t('field.erpAccount')}
          description={t('field.erpAccount.help')}
          defaultValue={supplier.erpAccount ?? ''}
          inputMode="numeric"
        />
        <TextField
          {...field('organizationNumber')}
          label={t('field.organizationNumber')}
          description={t('field.organizationNumber.help')}
          defaultValue={supplier.organizationNumber ?? ''}
          autoComplete="off"
        />
        <TextField
          {...field('peppolId')}
          label={t('field.peppolId')}
          description={t('field.peppolId.help')}
          defaultValue={supplier.peppolId ?? ''}
          autoComplete="off"
        />
        {showTags ? (
          <TagInput
            name="tags"
            label={t('field.tags')}
            defaultValue={supplier.tags}
            isDisabled={disabled}
            errorMessage={tagErrors(errors)}
            className="sm:col-span-2"
          />
        ) : (
          supplier.tags.map((tag) => <input key={tag} type="hidden" name="tags" value={tag} />)
        )}
      </div>
      <ContactsEditor defaultValue={supplier.contacts} errors={errors} isDisabled={disabled} />
    </RecordForm>
  );
}

/** The tag errors of a save (`tags`, `tags.0`, …) as one list. */
function tagErrors(errors: (field: string) => string[] | undefined): string[] | undefined {
  const all = [errors('tags'), ...Array.from({ length: 50 }, (_, i) => errors(`tags.${i}`))].flat().filter(Boolean);
  return all.length ? [...new Set(all as string[])] : undefined;
}
