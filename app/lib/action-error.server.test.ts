import { redirect } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppError } from '~/core/errors/app-error';
import { actionError } from './action-error.server';

/**
 * An action's failure is an answer the page shows, never an error page that throws away what the
 * person typed (issue 28 item 10).
 */
describe('[shell] actionError', () => {
  it('answers a refusal with its code, field errors and status', () => {
    const answer = actionError(new AppError('VALIDATION_ERROR', 400, { fields: { title: ['ERROR_REQUIRED_FIELD'] } }));
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toMatchObject({ code: 'VALIDATION_ERROR', fields: { title: ['ERROR_REQUIRED_FIELD'] } });
  });

  it('answers a server-side AppError (a mail relay down) with its own code instead of the error page', () => {
    const answer = actionError(new AppError('FAILED_TO_SEND_EMAIL', 502));
    expect(answer.init?.status).toBe(502);
    expect(answer.data).toMatchObject({ code: 'FAILED_TO_SEND_EMAIL' });
  });

  it('answers an unexpected failure as 500 SERVER_ERROR, without its message', () => {
    const answer = actionError(new TypeError('Cannot read properties of undefined (reading "id")'));
    expect(answer.init?.status).toBe(500);
    expect(answer.data).toEqual({ code: 'SERVER_ERROR' });
  });

  it('says which form asked in every answer, refusal or failure, and what still uses the thing', () => {
    const refused = actionError(new AppError('IN_USE', 409, { usedBy: { workOrders: 2 } }), { intent: 'delete' });
    expect(refused.init?.status).toBe(409);
    expect(refused.data).toEqual({ intent: 'delete', code: 'IN_USE', usedBy: { workOrders: 2 } });
    const failed = actionError(new Error('connection reset'), { intent: 'delete' });
    expect(failed.init?.status).toBe(500);
    expect(failed.data).toEqual({ intent: 'delete', code: 'SERVER_ERROR' });
  });

  it("adds what the page shows from a refusal's details, and keeps field errors with their limits", () => {
    const answer = actionError(
      new AppError('VALIDATION_FAILED', 400, {
        fields: { title: ['ERROR_MAX_LENGTH'] },
        limits: { title: 200 },
        overlaps: { 3: [4] },
      }),
      {},
      (d) => ({ overlaps: d.overlaps as Record<string, number[]> }),
    );
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toEqual({
      code: 'VALIDATION_FAILED',
      fields: { title: ['$t(common:ERROR_MAX_LENGTH_LIMIT, {"max": 200})'] },
      overlaps: { 3: [4] },
    });
  });

  it('throws on what React Router itself handles: a redirect', () => {
    const moved = redirect('/proposals');
    expect(() => actionError(moved)).toThrow();
    try {
      actionError(moved);
    } catch (thrown) {
      expect(thrown).toBe(moved);
    }
  });
});
