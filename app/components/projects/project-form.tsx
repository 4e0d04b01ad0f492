import { useTranslation } from 'react-i18next';
import { numberField } from '~/app/components/articles/format';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { TextArea } from '~/app/components/objects/shared';
import {
  DatePicker,
  dateValueOf,
  FormSection,
  peopleItems,
  RecordForm,
  recordFields,
  Select,
  TextField,
} from '~/app/components/ui';
import type { Project } from '~/core/projects/project.service';
import { RegionSelect } from '~/app/components/regions/region-select';

/** What the form starts from: a saved project, or the empty one of a new project. */
export type ProjectDraft = Pick<
  Project,
  | 'title'
  | 'name'
  | 'description'
  | 'startDate'
  | 'endDate'
  | 'responsibleUserId'
  | 'responsibleUserName'
  | 'salesUserId'
  | 'salesUserName'
  | 'region'
  | 'estimatedHours'
  | 'estimatedCost'
  | 'contractSum'
  | 'externalUrl'
  | 'version'
>;

export const emptyProject = (responsibleUserId: string | null): ProjectDraft => ({
  title: '',
  name: null,
  description: null,
  startDate: null,
  endDate: null,
  responsibleUserId,
  responsibleUserName: null,
  salesUserId: null,
  salesUserName: null,
  region: null,
  estimatedHours: null,
  estimatedCost: null,
  contractSum: '0.00',
  externalUrl: null,
  version: 0,
});

const NO_USER = 'none';

/** The posted form as the project the services take (`{project: …}` without id and version). */
export function projectFromForm(form: FormData) {
  const text = (k: string) => String(form.get(k) ?? '');
  const user = (k: string) => (text(k) === NO_USER ? '' : text(k));
  return {
    title: text('title'),
    name: text('name'),
    description: text('description'),
    startDate: text('startDate'),
    endDate: text('endDate'),
    responsibleUserId: user('responsibleUserId'),
    salesUserId: user('salesUserId'),
    region: text('region'),
    estimatedHours: text('estimatedHours'),
    estimatedCost: text('estimatedCost'),
    contractSum: text('contractSum'),
    externalUrl: text('externalUrl'),
  };
}

export interface ProjectFormProps {
  project: ProjectDraft;
  users: { id: string; name: string }[];
  errors: (field: string) => string[] | undefined;
  canEdit: boolean;
  /** A new project names its first customer here; an existing one manages its customers apart. */
  withCustomer?: boolean;
  submitLabel: string;
  /** Why the last save was refused, when no field says it (translated). */
  formError?: string | null;
  children?: React.ReactNode;
  /** The regions register's names to choose from (decision 067); none with the regions module off. */
  regions?: string[];
}

/**
 * The project's general info (spec section 3: title, name, dates, responsible and sales user,
 * region, estimated hours and cost, the fixed contract sum, external URL).
 */
export function ProjectForm({
  project,
  users,
  errors,
  canEdit,
  withCustomer,
  submitLabel,
  formError,
  children,
  regions = [],
}: ProjectFormProps) {
  const { t } = useTranslation('projects');
  const disabled = !canEdit;
  const field = recordFields(errors, disabled);
  const userItems = (chosen: string | null, chosenName: string | null) =>
    peopleItems(users, { id: NO_USER, label: t('field.user.none') }, { id: chosen, name: chosenName });
  return (
    <RecordForm
      version={project.version}
      canEdit={canEdit}
      submitLabel={submitLabel}
      actions={children}
      error={formError}
    >
      <FormSection title={t('section.general')}>
        <TextField {...field('title')} label={t('field.title')} defaultValue={project.title} isRequired />
        <TextField
          {...field('name')}
          label={t('field.name')}
          description={t('field.name.help')}
          defaultValue={project.name ?? ''}
        />
        {withCustomer ? (
          <CustomerPicker
            name="customerId"
            label={t('field.customer')}
            isDisabled={disabled}
            errorMessage={errors('customerIds')}
          />
        ) : null}
        <Select
          {...field('responsibleUserId')}
          label={t('field.responsibleUser')}
          defaultSelectedKey={project.responsibleUserId ?? NO_USER}
          items={userItems(project.responsibleUserId, project.responsibleUserName)}
        />
        <Select
          {...field('salesUserId')}
          label={t('field.salesUser')}
          defaultSelectedKey={project.salesUserId ?? NO_USER}
          items={userItems(project.salesUserId, project.salesUserName)}
        />
        <DatePicker
          {...field('startDate')}
          label={t('field.startDate')}
          defaultValue={dateValueOf(project.startDate)}
        />
        <DatePicker {...field('endDate')} label={t('field.endDate')} defaultValue={dateValueOf(project.endDate)} />
        {regions.length ? (
          <RegionSelect choices={regions} value={project.region} isDisabled={disabled} errorMessage={errors('region')} />
        ) : (
          // the regions module off: the project keeps the region it has
          <input type="hidden" name="region" value={project.region ?? ''} />
        )}
        <TextField
          {...field('externalUrl')}
          type="url"
          label={t('field.externalUrl')}
          defaultValue={project.externalUrl ?? ''}
        />
      </FormSection>
      <FormSection title={t('section.economy')} columns={3}>
        <TextField
          {...field('contractSum')}
          label={t('field.contractSum')}
          description={t('field.contractSum.help')}
          defaultValue={numberField(project.contractSum)}
        />
        <TextField
          {...field('estimatedHours')}
          label={t('field.estimatedHours')}
          defaultValue={numberField(project.estimatedHours)}
        />
        <TextField
          {...field('estimatedCost')}
          label={t('field.estimatedCost')}
          defaultValue={numberField(project.estimatedCost)}
        />
      </FormSection>
      <TextArea {...field('description')} label={t('field.description')} defaultValue={project.description ?? ''} />
    </RecordForm>
  );
}
