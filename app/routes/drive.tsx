import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/drive';
import { guard, run } from '~/app/lib/guard.server';
import { FileBrowser } from '~/app/components/files/file-browser';
import type { FileEntry } from '~/app/components/files/files-api';
import { tenantContext } from '~/app/context';
import { favouriteDriveFiles, recentDriveFiles } from '~/core/files/files.service';
import { pageTitle } from '~/app/lib/page-title';

/** The drive (spec section 2: /drive, the DRIVE module and drive:read): the company's shared files. */
export const middleware = guard({ permission: 'drive:read', module: 'drive' });

export async function loader({ context }: Route.LoaderArgs) {
  const [recent, favourites] = await run(context, async (ctx) => [
    await recentDriveFiles(ctx),
    await favouriteDriveFiles(ctx),
  ]);
  return {
    recent: recent.files,
    favourites: favourites.files,
    maxUploadMb: context.get(tenantContext).config.files.maxUploadMb,
  };
}

function QuickList({ title, files, empty }: { title: string; files: FileEntry[]; empty: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="rounded-lg border border-gray-200 bg-white p-3">
      <h2 id={id} className="text-sm font-semibold text-gray-900">
        {title}
      </h2>
      {files.length === 0 ? (
        <p className="mt-1 text-sm text-gray-700">{empty}</p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm">
          {files.map((f) => (
            <li key={f.id} className="truncate">
              {f.kind === 'file' ? (
                <a className="text-blue-700 underline" href={`/api/file/${f.id}`}>
                  {f.name}
                </a>
              ) : f.kind === 'link' ? (
                <a className="text-blue-700 underline" href={f.link!} target="_blank" rel="noopener noreferrer">
                  {f.name}
                </a>
              ) : (
                <span>📁 {f.name}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.drive');

export default function Drive({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('files');
  const revalidator = useRevalidator();
  return (
    <div className="space-y-4">
      <header>
        <h1 className="text-2xl font-semibold">{t('drive')}</h1>
        <p className="text-sm text-gray-700">{t('driveIntro')}</p>
      </header>
      <div className="grid gap-4 lg:grid-cols-[1fr_18rem]">
        <FileBrowser
          kind="drive"
          maxUploadMb={loaderData.maxUploadMb}
          searchable
          onChange={() => void revalidator.revalidate()}
        />
        <div className="grid content-start gap-4">
          <QuickList title={t('recent')} files={loaderData.recent} empty={t('noRecent')} />
          <QuickList title={t('favourites')} files={loaderData.favourites} empty={t('noFavourites')} />
        </div>
      </div>
    </div>
  );
}
