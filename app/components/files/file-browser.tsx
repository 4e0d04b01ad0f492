import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ZoneAudience } from '~/app/components/zone/zone-audience';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import {
  Button,
  ConfirmDialog,
  DateTime,
  Dialog,
  Menu,
  NativeSelect,
  SearchInput,
  Spinner,
  WidgetBoundary,
  TextField,
  useToast,
  type MenuItemDef,
  type PickerOption,
} from '~/app/components/ui';
import {
  ACCEPT,
  fileCall,
  FileCallError,
  filesBase,
  sizeParts,
  uploadFile,
  type FileEntry,
  type FileListing,
} from './files-api';

/** The PDF viewer (pdf.js) is its own chunk, loaded when a PDF is first previewed. */
const PdfPreview = lazy(() => import('./pdf-preview'));

/** Spec section 9: the file lists' page sizes. */
const PAGE_SIZES = [20, 50, 100] as const;

export interface FileBrowserProps {
  /** `drive`, or the kind of record: customer, bo, model, article, doorautomatic, wo. */
  kind: string;
  /** The record; none for the drive. */
  ownerId?: string;
  /** The tenant's largest file, in MB (shown beside the upload button). */
  maxUploadMb: number;
  /** Heading level of the section title (the drive page has its own h1). */
  heading?: 'h2' | 'h3';
  /** Shows a search field (the drive). */
  searchable?: boolean;
  /** Called after anything changed (the drive's recent list reloads). */
  onChange?: () => void;
}

type Upload = { key: number; name: string; progress: number; error?: string };
type DialogState =
  | { kind: 'folder' }
  | { kind: 'link' }
  | { kind: 'rename'; file: FileEntry }
  | { kind: 'move'; file: FileEntry }
  | { kind: 'delete'; file: FileEntry }
  | { kind: 'preview'; file: FileEntry }
  | { kind: 'publish'; file: FileEntry }
  | null;

/**
 * The file browser of spec section 2: a record's (or the drive's) files, folders and links, with
 * upload (several files at once, from a phone's camera too, with progress; dropped files too),
 * folders with a path back up, links (name and link required), rename, move, order, delete after
 * asking, publish to the customer zone, download one or all, and previews of images, video and PDF.
 * Everything goes through the file calls of the API, which check the kind's permissions; the
 * buttons shown follow the `can` of the listing.
 */
export function FileBrowser({ kind, ownerId, maxUploadMb, heading = 'h2', searchable, onChange }: FileBrowserProps) {
  const { t } = useTranslation('files');
  const { t: tu } = useTranslation('ui');
  const { t: tc } = useTranslation('common');
  const toast = useToast();
  const base = filesBase(kind, ownerId);
  const headingId = useId();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);

  const [folderId, setFolderId] = useState<string | null>(null);
  const [from, setFrom] = useState(0);
  const [size, setSize] = useState<number>(20);
  const [q, setQ] = useState('');
  const [listing, setListing] = useState<FileListing | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [dragging, setDragging] = useState(false);
  const [version, setVersion] = useState(0);

  const message = useCallback(
    (e: unknown) => {
      const err = e instanceof FileCallError ? e : new FileCallError(0, 'FAILED_TO_FETCH');
      const max = err.limits.file;
      return tc(err.code, { max, defaultValue: tc('FAILED_TO_FETCH') });
    },
    [tc],
  );

  useEffect(() => {
    let live = true;
    const query = new URLSearchParams({ from: String(from), size: String(size) });
    if (folderId) query.set('folderId', folderId);
    if (q.trim()) query.set('q', q.trim());
    setLoading(true);
    fileCall<FileListing>('GET', `${base}?${query}`)
      .then((l) => {
        if (!live) return;
        setListing(l);
        setLoadError(null);
      })
      .catch((e: unknown) => live && setLoadError(message(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [base, folderId, from, size, q, version, message]);

  const reload = () => {
    setVersion((v) => v + 1);
    onChange?.();
  };
  const openFolder = (id: string | null) => {
    setFolderId(id);
    setFrom(0);
    setQ('');
  };

  async function uploadAll(files: readonly File[]) {
    if (!files.length) return;
    const first = Date.now();
    const batch = files.map((f, i) => ({ key: first + i, name: f.name, progress: 0 }));
    setUploads((u) => [...u.filter((x) => x.error), ...batch]);
    let done = 0;
    for (const [i, file] of files.entries()) {
      const key = batch[i]!.key;
      try {
        await uploadFile(base, file, folderId, (p) =>
          setUploads((u) => u.map((x) => (x.key === key ? { ...x, progress: p } : x))),
        );
        done++;
        setUploads((u) => u.filter((x) => x.key !== key));
      } catch (e) {
        const reason = message(e);
        setUploads((u) => u.map((x) => (x.key === key ? { ...x, error: reason } : x)));
        toast.show({ kind: 'error', message: t('uploadFailed', { name: file.name, reason }) });
      }
    }
    if (done) {
      toast.show({ kind: 'success', message: t('uploaded', { count: done }) });
      reload();
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (listing?.can.upload) void uploadAll([...e.dataTransfer.files]);
  };

  async function act(run: () => Promise<unknown>, success: string) {
    try {
      await run();
      toast.show({ kind: 'success', message: success });
      reload();
    } catch (e) {
      toast.show({ kind: 'error', message: message(e) });
      throw e;
    }
  }

  const entries = listing?.files ?? [];
  const siblings = entries.filter((f) => f.kind !== 'folder');
  async function shift(file: FileEntry, by: -1 | 1) {
    const ids = siblings.map((f) => f.id);
    const at = ids.indexOf(file.id);
    const to = at + by;
    if (at < 0 || to < 0 || to >= ids.length) return;
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    await act(() => fileCall('POST', `/api/file/${file.id}/reorder`, { ids }), tc('SUCCESSFULLY_SAVED')).catch(
      () => undefined,
    );
  }

  function itemsFor(file: FileEntry): MenuItemDef[] {
    const can = listing!.can;
    const items: MenuItemDef[] = [];
    if (file.kind === 'folder') items.push({ id: 'open', label: file.name, onAction: () => openFolder(file.id) });
    if (file.kind === 'file') {
      items.push({ id: 'preview', label: t('preview'), onAction: () => setDialog({ kind: 'preview', file }) });
      items.push({ id: 'download', label: t('download'), href: `/api/file/${file.id}?download=1` });
    }
    if (file.kind === 'link') items.push({ id: 'open-link', label: t('openLink'), href: file.link! });
    if (can.edit) {
      items.push({ id: 'rename', label: t('rename'), onAction: () => setDialog({ kind: 'rename', file }) });
      items.push({ id: 'move', label: t('move'), onAction: () => setDialog({ kind: 'move', file }) });
      if (file.kind !== 'folder' && siblings.length > 1) {
        const at = siblings.findIndex((f) => f.id === file.id);
        if (at > 0) items.push({ id: 'up', label: t('moveUp'), onAction: () => void shift(file, -1) });
        if (at < siblings.length - 1)
          items.push({ id: 'down', label: t('moveDown'), onAction: () => void shift(file, 1) });
      }
      if (kind === 'bo' && file.kind === 'file')
        items.push({
          id: 'default',
          label: file.isDefault ? t('removeDefault') : t('makeDefault'),
          onAction: () =>
            void act(
              () => fileCall('POST', `/api/file/${file.id}/default`, { isDefault: !file.isDefault }),
              tc('SUCCESSFULLY_SAVED'),
            ).catch(() => undefined),
        });
    }
    if (kind === 'drive')
      items.push({
        id: 'favourite',
        label: file.favourite ? t('unfavourite') : t('favourite'),
        onAction: () =>
          void act(
            () => fileCall('PUT', '/api/file/drive/config/favourites', { id: file.id, favourite: !file.favourite }),
            tc('SUCCESSFULLY_SAVED'),
          ).catch(() => undefined),
      });
    if (can.publish && file.kind !== 'folder')
      items.push(
        file.published
          ? {
              id: 'unpublish',
              label: t('unpublish'),
              onAction: () =>
                void act(
                  () => fileCall('POST', `/api/file/drive/${file.id}/unpublish`, {}),
                  t('unpublishedDone', { name: file.name }),
                ).catch(() => undefined),
            }
          : {
              id: 'publish',
              label: t('publish'),
              // the dialog says who will see it before anything is published (decision 063)
              onAction: () => setDialog({ kind: 'publish', file }),
            },
      );
    if (can.remove)
      items.push({
        id: 'delete',
        label: t('delete'),
        isDanger: true,
        onAction: () => setDialog({ kind: 'delete', file }),
      });
    return items;
  }

  const Heading = heading;
  const total = listing?.totalCount ?? 0;
  const archive = `${base}/archive${folderId ? `?folderId=${folderId}` : ''}`;
  const hasFiles = entries.some((f) => f.kind === 'file');

  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-lg border bg-white p-3 sm:p-4 ${dragging ? 'border-blue-600 ring-2 ring-blue-600' : 'border-gray-200'}`}
      onDragOver={(e) => {
        if (!listing?.can.upload) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={headingId} className="text-base font-semibold text-gray-900">
          {t('title')}
          {listing ? <span className="ms-2 text-sm font-normal text-gray-600">({total})</span> : null}
        </Heading>
        <div className="flex flex-wrap gap-2">
          {listing?.can.upload && (
            <>
              <input
                ref={input}
                id={inputId}
                type="file"
                multiple
                accept={ACCEPT}
                // the Upload button opens it; hidden from the page and its reader, as the button says it all
                hidden
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])];
                  e.target.value = '';
                  void uploadAll(files);
                }}
              />
              <Button variant="primary" size="sm" onPress={() => input.current?.click()}>
                {t('upload')}
              </Button>
            </>
          )}
          {listing?.can.organise && (
            <>
              <Button size="sm" onPress={() => setDialog({ kind: 'folder' })}>
                {t('newFolder')}
              </Button>
              <Button size="sm" onPress={() => setDialog({ kind: 'link' })}>
                {t('addLink')}
              </Button>
            </>
          )}
          {hasFiles && (
            <a
              href={archive}
              className="inline-flex min-h-9 items-center rounded-md border border-gray-300 px-3 text-sm font-medium text-gray-900 hover:bg-gray-50"
            >
              {t('downloadAll')}
            </a>
          )}
        </div>
      </div>
      {listing?.can.upload && (
        <p id={`${inputId}-hint`} className="mt-1 text-sm text-gray-600">
          {dragging ? t('dropHere') : t('uploadHint', { max: maxUploadMb })}
        </p>
      )}

      {searchable && (
        <SearchInput
          className="mt-3 max-w-sm"
          label={t('search')}
          value={q}
          onChange={(v: string) => {
            setQ(v);
            setFrom(0);
          }}
        />
      )}

      {listing && listing.path.length > 0 && !q && (
        <nav aria-label={t('folder')} className="mt-3 text-sm">
          <ol className="flex flex-wrap items-center gap-1">
            <li>
              <button type="button" className="text-blue-700 underline" onClick={() => openFolder(null)}>
                {t('title')}
              </button>
            </li>
            {listing.path.map((p, i) => (
              <li key={p.id} className="flex items-center gap-1">
                <span aria-hidden="true">/</span>
                {i === listing.path.length - 1 ? (
                  <span aria-current="page" className="font-medium">
                    {p.name}
                  </span>
                ) : (
                  <button type="button" className="text-blue-700 underline" onClick={() => openFolder(p.id)}>
                    {p.name}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </nav>
      )}

      {uploads.length > 0 && (
        <ul className="mt-3 space-y-2" aria-label={t('upload')}>
          {uploads.map((u) => (
            <li key={u.key} className="text-sm">
              <div className="flex justify-between gap-2">
                <span className="truncate">
                  {u.error ? t('uploadFailed', { name: u.name, reason: u.error }) : t('uploading', { name: u.name })}
                </span>
                {!u.error && <span>{Math.round(u.progress * 100)} %</span>}
              </div>
              {!u.error && (
                <progress
                  className="h-2 w-full"
                  max={1}
                  value={u.progress}
                  aria-label={t('uploading', { name: u.name })}
                />
              )}
              {u.error && (
                <button
                  type="button"
                  className="text-blue-700 underline"
                  onClick={() => setUploads((x) => x.filter((y) => y.key !== u.key))}
                >
                  {tu('close')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      <div className="mt-3" aria-busy={loading || undefined}>
        {loadError ? (
          <p role="alert" className="text-sm text-red-700">
            {loadError}
          </p>
        ) : !listing ? (
          <Spinner />
        ) : entries.length === 0 && !listing.inherited?.length ? (
          <div className="rounded-md border border-dashed border-gray-300 p-4 text-center text-sm text-gray-700">
            {q ? (
              t('noMatches', { q })
            ) : folderId ? (
              t('emptyFolder')
            ) : (
              <>
                <p className="font-medium">{t('empty')}</p>
                {listing.can.upload && <p>{t('emptyHint')}</p>}
              </>
            )}
          </div>
        ) : (
          <ul className="divide-y divide-gray-100">
            {entries.map((f) => (
              <FileRow
                key={f.id}
                file={f}
                onOpen={() => (f.kind === 'folder' ? openFolder(f.id) : setDialog({ kind: 'preview', file: f }))}
                items={itemsFor(f)}
              />
            ))}
          </ul>
        )}
        {listing?.inherited && listing.inherited.length > 0 && (
          <div className="mt-3">
            <h3 className="text-sm font-semibold text-gray-800">{t('fromObject')}</h3>
            <ul className="divide-y divide-gray-100">
              {listing.inherited.map((f) => (
                <FileRow
                  key={f.id}
                  file={f}
                  onOpen={() => setDialog({ kind: 'preview', file: f })}
                  items={[
                    { id: 'preview', label: t('preview'), onAction: () => setDialog({ kind: 'preview', file: f }) },
                    { id: 'download', label: t('download'), href: `/api/file/${f.id}?download=1` },
                  ]}
                />
              ))}
            </ul>
          </div>
        )}
      </div>

      {listing && total > PAGE_SIZES[0] && (
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
          <span>{t('page', { page: Math.floor(from / size) + 1, pages: Math.max(1, Math.ceil(total / size)) })}</span>
          <div className="flex items-center gap-2">
            <Button size="sm" isDisabled={from === 0} onPress={() => setFrom(Math.max(0, from - size))}>
              ‹
              <span className="sr-only">
                {t('page', { page: Math.floor(from / size), pages: Math.ceil(total / size) })}
              </span>
            </Button>
            <Button size="sm" isDisabled={from + size >= total} onPress={() => setFrom(from + size)}>
              ›
              <span className="sr-only">
                {t('page', { page: Math.floor(from / size) + 2, pages: Math.ceil(total / size) })}
              </span>
            </Button>
            <NativeSelect
              label={t('size')}
              value={String(size)}
              onChange={(v: string) => {
                setSize(Number(v));
                setFrom(0);
              }}
              items={PAGE_SIZES.map((n) => ({ id: String(n), label: String(n) }))}
            />
          </div>
        </div>
      )}

      {(dialog?.kind === 'folder' || dialog?.kind === 'rename') && (
        <NameDialog
          title={dialog.kind === 'folder' ? t('newFolder') : t('rename')}
          label={dialog.kind === 'folder' ? t('folderName') : t('name')}
          initial={dialog.kind === 'rename' ? dialog.file.name : ''}
          submitLabel={dialog.kind === 'folder' ? t('create') : t('save')}
          onClose={() => setDialog(null)}
          onSubmit={(name) =>
            dialog.kind === 'folder'
              ? act(() => fileCall('POST', `${base}/folder`, { name, parentId: folderId }), tc('SUCCESSFULLY_SAVED'))
              : act(() => fileCall('POST', `/api/file/${dialog.file.id}/rename`, { name }), t('renamed', { name }))
          }
        />
      )}
      {dialog?.kind === 'link' && (
        <LinkDialog
          onClose={() => setDialog(null)}
          onSubmit={(body) =>
            act(() => fileCall('POST', `${base}/link`, { ...body, folderId }), tc('SUCCESSFULLY_SAVED'))
          }
        />
      )}
      {dialog?.kind === 'move' && (
        <MoveDialog
          file={dialog.file}
          folders={[...(listing?.path ?? []), ...entries.filter((f) => f.kind === 'folder' && f.id !== dialog.file.id)]}
          onClose={() => setDialog(null)}
          onSubmit={(target) =>
            act(
              () => fileCall('POST', `/api/file/${dialog.file.id}/move`, { folderId: target }),
              t('moved', { name: dialog.file.name }),
            )
          }
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          isOpen
          onOpenChange={(open) => !open && setDialog(null)}
          title={t('deleteTitle', { name: dialog.file.name })}
          message={dialog.file.kind === 'folder' ? t('deleteFolderMessage') : t('deleteMessage')}
          confirmLabel={t('delete')}
          variant="danger"
          onConfirm={() =>
            act(() => fileCall('DELETE', `/api/file/${dialog.file.id}`), t('deleted', { name: dialog.file.name }))
          }
        />
      )}
      {dialog?.kind === 'publish' && (
        <PublishDialog
          file={dialog.file}
          isDrive={kind === 'drive'}
          onClose={() => setDialog(null)}
          onSubmit={(customerId) =>
            act(
              () =>
                fileCall('POST', `/api/file/drive/${dialog.file.id}/publish`, customerId ? { customerId } : {}),
              t('publishedDone', { name: dialog.file.name }),
            )
          }
        />
      )}
      {dialog?.kind === 'preview' && <PreviewDialog file={dialog.file} onClose={() => setDialog(null)} />}
    </section>
  );
}

function FileRow({ file, onOpen, items }: { file: FileEntry; onOpen: () => void; items: MenuItemDef[] }) {
  const { t } = useTranslation('files');
  const size = sizeParts(file.size);
  const extension = file.kind === 'file' ? (file.name.split('.').pop() ?? '').slice(0, 4).toUpperCase() : '';
  return (
    <li className="flex items-center gap-3 py-2">
      <span
        className="flex h-12 w-12 shrink-0 items-center justify-center overflow-hidden rounded bg-gray-100 text-xs font-semibold text-gray-700"
        aria-hidden="true"
      >
        {file.hasThumbnail ? (
          <img src={`/api/file/${file.id}/thumbnail`} alt="" loading="lazy" className="h-12 w-12 object-cover" />
        ) : file.kind === 'folder' ? (
          '📁'
        ) : file.kind === 'link' ? (
          '🔗'
        ) : (
          extension || '—'
        )}
      </span>
      <div className="min-w-0 flex-1">
        {file.kind === 'link' ? (
          <a
            href={file.link!}
            target="_blank"
            rel="noopener noreferrer"
            className="block truncate font-medium text-blue-700 underline"
          >
            {file.name}
          </a>
        ) : (
          <button
            type="button"
            onClick={onOpen}
            className="block max-w-full truncate text-start font-medium text-blue-700 underline"
          >
            {file.name}
          </button>
        )}
        <p className="text-xs text-gray-600">
          {file.kind === 'file' && <span className="me-2">{t(size.key, { n: size.n })}</span>}
          <DateTime iso={file.createdAt} withTime={false} />
          {file.createdByName && <span className="ms-2">{file.createdByName}</span>}
          {file.published && <span className="ms-2 rounded bg-green-100 px-1.5 text-green-900">{t('published')}</span>}
          {file.isDefault && <span className="ms-2 rounded bg-blue-100 px-1.5 text-blue-900">{t('default')}</span>}
          {file.favourite && (
            <span className="ms-2" aria-label={t('favourites')}>
              ★
            </span>
          )}
        </p>
      </div>
      <Menu items={items} isIconOnly label={t('actionsFor', { name: file.name })} placement="bottom end" />
    </li>
  );
}

/** Keeps a dialog open on a refusal and shows its field errors; closes on success. */
function useSubmit(onSubmit: () => Promise<unknown>, onClose: () => void) {
  const { t: tc } = useTranslation('common');
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit();
      onClose();
    } catch (e) {
      if (e instanceof FileCallError) setFields(e.fields);
    } finally {
      setBusy(false);
    }
  };
  const error = (name: string) => fields[name]?.map((c) => tc(c));
  return { busy, submit, error };
}

/** The browser's small dialogs: a form, Cancel and the action (pending while it runs). */
function FormDialog(props: {
  title: string;
  submitLabel: string;
  busy: boolean;
  isDisabled?: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t: tu } = useTranslation('ui');
  const formId = useId();
  return (
    <Dialog
      isOpen
      onOpenChange={(open) => !open && props.onClose()}
      title={props.title}
      size="sm"
      footer={
        <>
          <Button onPress={props.onClose}>{tu('cancel')}</Button>
          <Button variant="primary" type="submit" form={formId} isPending={props.busy} isDisabled={props.isDisabled}>
            {props.submitLabel}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        {props.children}
      </form>
    </Dialog>
  );
}

function NameDialog(props: {
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: (name: string) => Promise<unknown>;
}) {
  const [name, setName] = useState(props.initial);
  const { busy, submit, error } = useSubmit(() => props.onSubmit(name.trim()), props.onClose);
  return (
    <FormDialog
      title={props.title}
      submitLabel={props.submitLabel}
      busy={busy}
      onClose={props.onClose}
      onSubmit={() => void submit()}
    >
      <TextField
        label={props.label}
        value={name}
        onChange={setName}
        isRequired
        autoFocus
        maxLength={255}
        errorMessage={error('name')}
      />
    </FormDialog>
  );
}

function LinkDialog(props: {
  onClose: () => void;
  onSubmit: (body: { name: string; link: string }) => Promise<unknown>;
}) {
  const { t } = useTranslation('files');
  const [name, setName] = useState('');
  const [link, setLink] = useState('');
  const { busy, submit, error } = useSubmit(
    () => props.onSubmit({ name: name.trim(), link: link.trim() }),
    props.onClose,
  );
  return (
    <FormDialog
      title={t('addLink')}
      submitLabel={t('save')}
      busy={busy}
      onClose={props.onClose}
      onSubmit={() => void submit()}
    >
      <TextField
        label={t('name')}
        value={name}
        onChange={setName}
        isRequired
        autoFocus
        maxLength={255}
        errorMessage={error('name')}
      />
      <TextField
        label={t('link')}
        type="url"
        value={link}
        onChange={setLink}
        isRequired
        description={t('linkHelp')}
        maxLength={2000}
        errorMessage={error('link')}
      />
    </FormDialog>
  );
}

function MoveDialog(props: {
  file: FileEntry;
  folders: { id: string; name: string }[];
  onClose: () => void;
  onSubmit: (folderId: string | null) => Promise<unknown>;
}) {
  const { t } = useTranslation('files');
  const options = [{ id: '', label: t('topLevel') }, ...props.folders.map((f) => ({ id: f.id, label: f.name }))];
  const [target, setTarget] = useState(props.file.folderId ?? '');
  const { busy, submit } = useSubmit(() => props.onSubmit(target || null), props.onClose);
  return (
    <FormDialog
      title={t('moveTitle', { name: props.file.name })}
      submitLabel={t('move')}
      busy={busy}
      isDisabled={target === (props.file.folderId ?? '')}
      onClose={props.onClose}
      onSubmit={() => void submit()}
    >
      <NativeSelect label={t('moveTarget')} value={target} onChange={(v: string) => setTarget(v)} items={options} />
    </FormDialog>
  );
}

/** Publishing: a drive file to the customer picked here, a record's file to its own customer; both say who will see it. */
function PublishDialog(props: {
  file: FileEntry;
  isDrive: boolean;
  onClose: () => void;
  onSubmit: (customerId: string | null) => Promise<unknown>;
}) {
  const { t } = useTranslation('files');
  const [customer, setCustomer] = useState<PickerOption | null>(null);
  const { busy, submit } = useSubmit(() => props.onSubmit(props.isDrive ? customer!.id : null), props.onClose);
  return (
    <FormDialog
      title={props.isDrive ? t('publishTo', { name: props.file.name }) : `${t('publish')}: ${props.file.name}`}
      submitLabel={t('publish')}
      busy={busy}
      isDisabled={props.isDrive && !customer}
      onClose={props.onClose}
      onSubmit={() => void submit()}
    >
      {props.isDrive ? (
        <CustomerPicker label={t('customer')} onSelectionChange={setCustomer} isRequired autoFocus />
      ) : null}
      <ZoneAudience fileId={props.file.id} customerId={customer?.id ?? null} isDrive={props.isDrive} />
    </FormDialog>
  );
}

/** Images and video in the browser's own viewers, PDF through pdf.js; anything else offers the download. */
function PreviewDialog({ file, onClose }: { file: FileEntry; onClose: () => void }) {
  const { t } = useTranslation('files');
  const src = `/api/file/${file.id}`;
  return (
    <Dialog isOpen onOpenChange={(open) => !open && onClose()} title={file.name} size="lg">
      <div className="space-y-3">
        {file.image ? (
          <img src={src} alt={file.name} className="mx-auto max-h-[70dvh] max-w-full object-contain" />
        ) : file.contentType?.startsWith('video/') ? (
          <video src={src} controls preload="metadata" className="mx-auto max-h-[70dvh] max-w-full">
            <track kind="captions" />
          </video>
        ) : file.contentType === 'application/pdf' ? (
          <WidgetBoundary>
            <Suspense fallback={<Spinner />}>
              <PdfPreview src={src} />
            </Suspense>
          </WidgetBoundary>
        ) : (
          <p>{t('noPreview')}</p>
        )}
        <a
          href={`${src}?download=1`}
          className="inline-flex min-h-9 items-center rounded-md border border-gray-300 px-3 text-sm font-medium text-gray-900 hover:bg-gray-50"
        >
          {t('download')}
        </a>
      </div>
    </Dialog>
  );
}
