import type { Route } from './+types/work-orders.calendar.events';
import { tenantContext } from '~/app/context';
import { guard } from '~/app/lib/guard.server';
import { registerBoardStream, subscribeBoard } from '~/core/events/board-events';

/**
 * The calendar's live channel (server-sent events): each planning change of the tenant, once
 * committed, arrives as `event: board` with the board's new version. The board reloads what it
 * shows when the version is newer than its own. A comment every 25 s keeps proxies from closing
 * the line; `no-transform` keeps compression from holding events back.
 */
export const middleware = guard({ permission: 'workorders:read' });

export const BOARD_HEARTBEAT_MS = 25_000;

export function loader({ request, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      send(`retry: 3000\n\n`);
      const unsubscribe = subscribeBoard(tenant.id, (event) =>
        send(
          `event: board\ndata: ${JSON.stringify({ version: event.version, userId: event.userId, workOrderIds: event.workOrderIds })}\n\n`,
        ),
      );
      const heartbeat = setInterval(() => send(`: keep-alive\n\n`), BOARD_HEARTBEAT_MS);
      const unregister = registerBoardStream(() => stop());
      stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
        unregister();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      request.signal.addEventListener('abort', () => stop(), { once: true });
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
}
