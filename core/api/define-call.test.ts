import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '~/core/errors/app-error';
import { asSent, callInput, shownOnly } from './define-call';

/** A schema that is not safe to run twice: text to a number of cents. */
const ZAmount = z.object({
  amount: z
    .string()
    .regex(/^\d+(\.\d\d)?$/, 'ERROR_INVALID_VALUE')
    .transform((v) => Number(v) * 100),
});

describe('[platform] a call input at the boundary', () => {
  it('hands a plain schema its parsed value', () => {
    expect(callInput(ZAmount, { amount: '1.50', extra: 1 })).toEqual({ amount: 150 });
  });

  it('checks an asSent schema but hands on the input as sent, so the service can parse it again', () => {
    const sent = { amount: '1.50', id: 'x' };
    expect(callInput(asSent(ZAmount), sent)).toBe(sent);
    const refused = (() => {
      try {
        callInput(asSent(ZAmount), { amount: 'lots' });
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.status).toBe(400);
    expect(refused.details).toEqual({ fields: { amount: ['ERROR_INVALID_VALUE'] } });
  });

  it('checks a wrapped body as the service reads it, so the errors name the same fields', () => {
    const unwrap = z.preprocess((v) => (v as { entity?: unknown }).entity ?? v, ZAmount);
    const schema = asSent(z.object({ entity: ZAmount }), unwrap);
    const sent = { entity: { amount: '2.00' } };
    expect(callInput(schema, sent)).toBe(sent);
    expect(() => callInput(schema, { entity: { amount: 'x' } })).toThrow(
      expect.objectContaining({ details: { fields: { amount: ['ERROR_INVALID_VALUE'] } } }),
    );
  });

  it('leaves a shownOnly schema to the service, and marks neither the service schema', () => {
    expect(callInput(shownOnly(ZAmount), { amount: 'lots' })).toEqual({ amount: 'lots' });
    expect(() => callInput(ZAmount, { amount: 'lots' })).toThrow(AppError);
    expect(z.toJSONSchema(asSent(ZAmount), { io: 'input' })).toEqual(z.toJSONSchema(ZAmount, { io: 'input' }));
  });
});
