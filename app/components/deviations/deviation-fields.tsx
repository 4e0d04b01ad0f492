import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';

export const INPUT =
  'min-h-12 w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 aria-invalid:border-red-600 sm:min-h-11 sm:text-sm';

/** A labelled form field with its translated errors, big enough for a thumb at 390 px. */
export function DeviationField({
  id,
  label,
  errors,
  children,
}: {
  id: string;
  label: string;
  errors?: string[];
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid min-w-0 gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({ id, ...(errors?.length ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {}) })}
      {errors?.length ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {errors.map((k) => t(k)).join(' ')}
        </p>
      ) : null}
    </div>
  );
}

/** Where a relation's record opens. */
export function relationHref(r: { kind: string; targetId: string; workOrderId: string | null }): string | null {
  switch (r.kind) {
    case 'work_order':
      return `/work-orders/${r.targetId}`;
    case 'object':
      return `/inventory/objects/${r.targetId}`;
    case 'customer':
      return `/inventory/customers/${r.targetId}`;
    case 'project':
      return `/projects/${r.targetId}`;
    case 'supplier':
      return `/inventory/suppliers/${r.targetId}`;
    case 'supplier_invoice':
      return `/supplierinvoices/${r.targetId}`;
    case 'supplier_order':
      return '/supplierorders';
    case 'service_report':
      return r.workOrderId ? `/work-orders/${r.workOrderId}` : null;
    default:
      return null;
  }
}
