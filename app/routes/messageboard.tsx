import { data } from 'react-router';
import type { Route } from './+types/messageboard';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import {
  createMessagePost,
  deleteMessagePost,
  EDIT_BOARD,
  updateMessagePost,
} from '~/core/message-board/message-board.service';

/**
 * The dashboard's message board (app/components/dashboard/message-board.tsx) posts here: `intent`
 * create, update (with `id`) or delete (with `id`); the dashboard's loader then shows the board
 * again. message_board_post:edit and the broadcast module (decision 066).
 */
export const middleware = guard(EDIT_BOARD);

export type MessageBoardActionResult =
  { ok: true; intent: string } | { ok?: undefined; intent?: string; code: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const id = form.get('id');
  const post = { title: form.get('title') ?? '', text: form.get('text') ?? '', expiresOn: form.get('expiresOn') ?? '' };
  try {
    await run(context, async (ctx) => {
      if (intent === 'create') await createMessagePost(ctx, post);
      else if (intent === 'update') await updateMessagePost(ctx, id, post);
      else if (intent === 'delete') await deleteMessagePost(ctx, id);
      else throw new Error(`unknown intent ${intent}`);
    });
    return data<MessageBoardActionResult>({ ok: true, intent });
  } catch (e) {
    return actionError<MessageBoardActionResult>(e, { intent });
  }
}
