import { z } from 'zod';

/**
 * The security-system documentation of an object (spec section 3: burglary, passage, camera,
 * fire alarm, assault), one typed field list per system. The object page renders a form from it,
 * the service validates with the schema made from it, and labels are i18n keys
 * `sec.<type>.<field>` in the `objects` namespace (sections `sec.section.<key>`, choices
 * `sec.option.<value>`).
 */

export const SECURITY_FORM_TYPES = ['burglary', 'passage', 'camera', 'firealarm', 'assault'] as const;
export type SecurityFormType = (typeof SECURITY_FORM_TYPES)[number];

export const isSecurityFormType = (v: unknown): v is SecurityFormType =>
  typeof v === 'string' && (SECURITY_FORM_TYPES as readonly string[]).includes(v);

export type FormFieldKind = 'text' | 'textarea' | 'number' | 'date' | 'boolean' | 'select';

export interface FormField {
  key: string;
  kind: FormFieldKind;
  /** The choices of a select (stored as given; labelled `sec.option.<value>`). */
  options?: readonly string[];
}

export interface FormSection {
  key: string;
  fields: readonly FormField[];
}

const text = (key: string): FormField => ({ key, kind: 'text' });
const area = (key: string): FormField => ({ key, kind: 'textarea' });
const num = (key: string): FormField => ({ key, kind: 'number' });
const date = (key: string): FormField => ({ key, kind: 'date' });
const bool = (key: string): FormField => ({ key, kind: 'boolean' });
const select = (key: string, options: readonly string[]): FormField => ({ key, kind: 'select', options });

const TRANSMISSION = ['ip', 'cellular', 'dual_path', 'pstn', 'none'] as const;

export const SECURITY_FORMS: Record<SecurityFormType, readonly FormSection[]> = {
  burglary: [
    {
      key: 'system',
      fields: [
        text('controlPanel'),
        text('panelLocation'),
        text('firmwareVersion'),
        select('certificationClass', ['class1', 'class2', 'class3', 'class4']),
        text('installerCertificate'),
        date('installationDate'),
        date('lastInspectionDate'),
      ],
    },
    {
      key: 'transmission',
      fields: [
        text('alarmReceivingCentre'),
        select('transmission', TRANSMISSION),
        text('transmitterId'),
        text('subscriberNumber'),
      ],
    },
    {
      key: 'detection',
      fields: [
        num('numberOfZones'),
        area('detectors'),
        num('indoorSirens'),
        num('outdoorSirens'),
        num('keypads'),
        text('battery'),
        date('batteryReplaced'),
      ],
    },
    { key: 'notes', fields: [area('notes')] },
  ],
  passage: [
    {
      key: 'system',
      fields: [
        text('system'),
        text('software'),
        text('softwareVersion'),
        text('serverLocation'),
        date('installationDate'),
      ],
    },
    {
      key: 'doors',
      fields: [
        num('numberOfDoors'),
        num('readers'),
        select('readerType', ['card', 'pin', 'card_pin', 'mobile', 'biometric']),
        text('cardFormat'),
        num('controllers'),
        text('controllerLocation'),
        bool('alarmIntegration'),
      ],
    },
    { key: 'notes', fields: [area('notes')] },
  ],
  camera: [
    {
      key: 'system',
      fields: [text('recorder'), text('recorderLocation'), text('software'), date('installationDate')],
    },
    {
      key: 'cameras',
      fields: [num('numberOfCameras'), area('cameraModels'), num('storageDays'), num('storageCapacityTb')],
    },
    {
      key: 'access',
      fields: [bool('remoteAccess'), text('remoteAccessMethod'), bool('signage'), bool('privacyAssessment')],
    },
    { key: 'notes', fields: [area('notes')] },
  ],
  firealarm: [
    {
      key: 'system',
      fields: [
        text('controlPanel'),
        text('panelLocation'),
        text('certification'),
        date('installationDate'),
        date('lastInspectionDate'),
      ],
    },
    {
      key: 'detection',
      fields: [num('numberOfDetectors'), area('detectorTypes'), num('manualCallPoints'), bool('sprinkler')],
    },
    {
      key: 'monitoring',
      fields: [select('monitoring', ['rescue_service', 'alarm_centre', 'local']), text('alarmPlanLocation')],
    },
    { key: 'notes', fields: [area('notes')] },
  ],
  assault: [
    {
      key: 'buttons',
      fields: [
        num('numberOfButtons'),
        select('buttonType', ['fixed', 'portable', 'both']),
        area('buttonLocations'),
        bool('silentAlarm'),
      ],
    },
    {
      key: 'transmission',
      fields: [num('receivers'), text('alarmReceivingCentre'), select('transmission', TRANSMISSION)],
    },
    { key: 'system', fields: [date('installationDate')] },
    { key: 'notes', fields: [area('notes')] },
  ],
};

export const formFields = (type: SecurityFormType): FormField[] => SECURITY_FORMS[type].flatMap((s) => s.fields);

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const empty = (v: unknown) => v === undefined || v === null || v === '';

function fieldSchema(field: FormField): z.ZodType {
  switch (field.kind) {
    case 'text':
      return z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(200, 'ERROR_MAX_LENGTH');
    case 'textarea':
      return z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(4000, 'ERROR_MAX_LENGTH');
    case 'number':
      return z.coerce
        .number({ error: 'ERROR_INVALID_VALUE' })
        .finite('ERROR_INVALID_VALUE')
        .min(0, 'ERROR_NEGATIVE_AMOUNT')
        .max(1_000_000, 'ERROR_INVALID_VALUE');
    case 'date':
      return z
        .string({ error: 'ERROR_INVALID_VALUE' })
        .regex(DATE_PATTERN, 'ERROR_INVALID_VALUE')
        .refine((v) => !Number.isNaN(Date.parse(v)), 'ERROR_INVALID_VALUE');
    case 'boolean':
      return z.preprocess(
        (v) => (v === 'on' || v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
        z.boolean({ error: 'ERROR_INVALID_VALUE' }),
      );
    case 'select':
      return z.enum(field.options as [string, ...string[]], { error: 'ERROR_INVALID_VALUE' });
  }
}

/**
 * The schema of one form's data: every field optional (empty means not filled in and is left
 * out of what is stored), unknown keys refused.
 */
export function securityFormSchema(type: SecurityFormType) {
  const shape = Object.fromEntries(
    formFields(type).map((f) => [f.key, z.preprocess((v) => (empty(v) ? undefined : v), fieldSchema(f).optional())]),
  );
  return z
    .object(shape)
    .strict()
    .transform((data) => Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined && v !== '')));
}
