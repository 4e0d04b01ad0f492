import { z } from 'zod';
import { asSent, defineCall, type ApiCall } from '~/core/api/define-call';
import { requireDrive } from '~/core/files/files.service';
import { fileCalls } from './files.calls';

/**
 * The drive's calls under the paths the spec's catalogue gives them (issue 29 item 5):
 * /file/drive/{id}, /recent, /favourites, /folder, /link and /config/favourites, `{id}` naming the
 * drive as GET /file/drive answers it (`driveId`). Each is the /file/drive call of the same method
 * and tail with the drive checked first (another company's or an unknown id is 404), so the two
 * paths cannot drift apart. Publish and unpublish are already /file/drive/{id}/publish, with the
 * file's id.
 */
const SERVED = [
  'GET /file/drive',
  'GET /file/drive/recent',
  'GET /file/drive/favourites',
  'PUT /file/drive/config/favourites',
  'POST /file/drive/folder',
  'POST /file/drive/link',
];

const withDrive = (input: z.ZodType) =>
  input instanceof z.ZodObject ? input.extend({ driveId: z.string() }) : z.object({ driveId: z.string() }).loose();

export const driveByIdCalls: ApiCall[] = SERVED.map((key) => {
  const call = fileCalls.find((c) => `${c.method} ${c.path}` === key);
  if (!call) throw new Error(`the drive call ${key} is not in the catalogue`);
  return defineCall({
    ...call,
    path: call.path.replace('/file/drive', '/file/drive/:driveId'),
    // checked at the boundary, handed on as sent: the drive call's service parses it again
    input: asSent(withDrive(call.input)),
    summary: `${call.summary} — the drive named by its id (driveId of GET /file/drive); 404 for any other`,
    handler: (ctx, input: Record<string, unknown>, meta) => {
      requireDrive(ctx, input.driveId);
      const { driveId: _drive, ...rest } = input;
      return call.handler(ctx, rest, meta);
    },
  });
});
