import { useId, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher } from 'react-router';
import { Button, ConfirmDialog, DateTime, useToast } from '~/app/components/ui';
import { NATIVE_INPUT_CLASS } from '~/app/components/ui/native-field';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { MessagePost } from '~/core/message-board/message-board.service';
import type { MessageBoardActionResult } from '~/app/routes/messageboard';

/**
 * The dashboard's message board (broadcast module; decision 066): the posts still showing, newest
 * first, and the close dialog's order-finish broadcasts. Holders of message_board_post:edit write,
 * change and (after a question) delete posts; the form posts to /messageboard and the dashboard's
 * loader shows the board again.
 */
export function MessageBoard({ posts, canEdit }: { posts: MessagePost[]; canEdit: boolean }) {
  const { t } = useTranslation('messageboard');
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MessagePost | null>(null);
  const fetcher = useFetcher<MessageBoardActionResult>();
  const toast = useToast();
  const result = useFetcherResult(fetcher, (r) => {
    if (r.ok) {
      toast.show({ kind: 'success', message: t(r.intent === 'delete' ? 'deleted' : 'saved') });
      setEditing(null);
      setDeleting(null);
    } else if (!r.fields) toast.show({ kind: 'error', message: t(`common:${r.code}`) });
  });
  const fields = result && !result.ok ? result.fields : undefined;
  const busy = fetcher.state !== 'idle';
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {t('title')}
        </h2>
        {canEdit && editing !== 'new' ? (
          <Button variant="secondary" onPress={() => setEditing('new')}>
            {t('new')}
          </Button>
        ) : null}
      </div>
      {editing === 'new' ? (
        <PostForm fetcher={fetcher} busy={busy} fields={fields} onCancel={() => setEditing(null)} />
      ) : null}
      {posts.length === 0 ? <p className="mt-2 text-sm text-slate-600">{t('empty')}</p> : null}
      <ul className="mt-2 divide-y divide-slate-100">
        {posts.map((p) => (
          <li key={p.id} className="py-3">
            {editing === p.id ? (
              <PostForm fetcher={fetcher} busy={busy} fields={fields} post={p} onCancel={() => setEditing(null)} />
            ) : (
              <article aria-label={p.title}>
                <h3 className="font-medium break-words">
                  {p.kind === 'order_finish' && p.workOrder ? (
                    <Link to={`/work-orders/${p.workOrder.id}`} className="text-brand-700 underline">
                      {t('orderFinished', { number: p.workOrder.number, title: p.title })}
                    </Link>
                  ) : (
                    p.title
                  )}
                </h3>
                {p.text ? <p className="mt-1 text-sm break-words whitespace-pre-wrap">{p.text}</p> : null}
                <p className="mt-1 text-xs text-slate-600">
                  {p.author ? `${p.author} · ` : ''}
                  <DateTime iso={p.createdAt} />
                  {p.expiresOn ? ` · ${t('showsUntil', { date: p.expiresOn })}` : ''}
                </p>
                {canEdit ? (
                  <div className="mt-2 flex gap-2">
                    <Button
                      variant="ghost"
                      onPress={() => setEditing(p.id)}
                      aria-label={t('editNamed', { title: p.title })}
                    >
                      {t('edit')}
                    </Button>
                    <Button
                      variant="ghost"
                      onPress={() => setDeleting(p)}
                      aria-label={t('deleteNamed', { title: p.title })}
                    >
                      {t('delete')}
                    </Button>
                  </div>
                ) : null}
              </article>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        title={t('deleteTitle')}
        message={deleting ? t('deleteQuestion', { title: deleting.title }) : undefined}
        confirmLabel={t('delete')}
        variant="danger"
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        isPending={busy}
        onConfirm={() => {
          if (deleting)
            void fetcher.submit({ intent: 'delete', id: deleting.id }, { method: 'post', action: '/messageboard' });
        }}
      />
    </section>
  );
}

function PostForm({
  fetcher,
  busy,
  fields,
  post,
  onCancel,
}: {
  fetcher: ReturnType<typeof useFetcher<MessageBoardActionResult>>;
  busy: boolean;
  fields: Record<string, string[]> | undefined;
  post?: MessagePost;
  onCancel: () => void;
}) {
  const { t } = useTranslation('messageboard');
  const id = useId();
  const err = (name: string) => fields?.[name]?.map((k) => t(`common:${k}`)).join(' ');
  const field = (
    name: 'title' | 'text' | 'expiresOn',
    label: string,
    input: (props: Record<string, unknown>) => ReactElement,
  ) => {
    const e = err(name);
    return (
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor={`${id}-${name}`} className="text-sm font-medium text-gray-900">
          {label}
        </label>
        {input({
          id: `${id}-${name}`,
          name,
          'aria-invalid': e ? true : undefined,
          'aria-describedby': e ? `${id}-${name}-error` : undefined,
        })}
        {e ? (
          <span id={`${id}-${name}-error`} className="text-sm text-red-700">
            {e}
          </span>
        ) : null}
      </div>
    );
  };
  return (
    <fetcher.Form
      method="post"
      action="/messageboard"
      className="mt-3 grid gap-3"
      aria-label={post ? t('editTitle') : t('newTitle')}
    >
      <input type="hidden" name="intent" value={post ? 'update' : 'create'} />
      {post ? <input type="hidden" name="id" value={post.id} /> : null}
      {field('title', t('postTitle'), (props) => (
        <input
          {...props}
          type="text"
          required
          maxLength={200}
          defaultValue={post?.title}
          className={NATIVE_INPUT_CLASS}
        />
      ))}
      {field('text', t('text'), (props) => (
        <textarea
          {...props}
          rows={3}
          maxLength={5000}
          defaultValue={post?.text}
          className={`${NATIVE_INPUT_CLASS} py-2`}
        />
      ))}
      {field('expiresOn', t('expiresOn'), (props) => (
        <input {...props} type="date" defaultValue={post?.expiresOn ?? ''} className={NATIVE_INPUT_CLASS} />
      ))}
      <p className="text-xs text-slate-600">{t('expiresOnHelp')}</p>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" isPending={busy}>
          {post ? t('save') : t('publish')}
        </Button>
        <Button variant="secondary" onPress={onCancel}>
          {t('cancel')}
        </Button>
      </div>
    </fetcher.Form>
  );
}
