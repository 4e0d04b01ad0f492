import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '~/app/lib/can';
import { DateTime, Spinner } from '~/app/components/ui';
import { fileCall, type FileEntry } from './files-api';

/**
 * What the customer sees in the customer zone: the files published to it from the customer, its
 * objects and work orders and the drive (issue 12, spec section 6: customerzone:publish_files).
 */
export function PublishedFiles({ customerId }: { customerId: string }) {
  const { t } = useTranslation('files');
  const can = useCan();
  const headingId = useId();
  const visible = can('customers:files:read', 'files') || can('customers:files', 'files');
  const [files, setFiles] = useState<FileEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!visible) return;
    let live = true;
    fileCall<{ files: FileEntry[] }>('GET', `/api/file/published/${customerId}`)
      .then((r) => live && setFiles(r.files))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [customerId, visible]);
  if (!visible || !can('signed-in', 'customerzone')) return null;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-gray-200 bg-white p-3 sm:p-4">
      <h2 id={headingId} className="text-base font-semibold text-gray-900">
        {t('publishedFiles')}
      </h2>
      {failed ? null : !files ? (
        <Spinner />
      ) : files.length === 0 ? (
        <p className="mt-2 text-sm text-gray-700">{t('publishedEmpty')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-gray-100" data-testid="published-files">
          {files.map((f) => (
            <li key={f.id} className="py-2 text-sm">
              {f.kind === 'link' ? (
                <a
                  href={f.link!}
                  className="font-medium text-blue-700 underline"
                  rel="noopener noreferrer"
                  target="_blank"
                >
                  {f.name}
                </a>
              ) : (
                <a href={`/api/file/${f.id}`} className="font-medium text-blue-700 underline">
                  {f.name}
                </a>
              )}
              <span className="ms-2 text-gray-600">
                {t('publishedFrom', { source: t(`owner.${f.ownerType}`, { defaultValue: f.ownerType }) })} ·{' '}
                {f.publishedAt && <DateTime iso={f.publishedAt} withTime={false} />}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
