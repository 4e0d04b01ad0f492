import { describe, expect, it } from 'vitest';
import { ErpError, isErpError } from './erp-http';

describe('[erp] isErpError', () => {
  it('knows an ErpError from this module and one made by a plugin’s own copy of it, and nothing else', () => {
    expect(isErpError(new ErpError('ERP_AUTH_FAILED', { vendorMessage: 'no' }))).toBe(true);
    // what a plugin imported outside the server bundle throws: the same shape, another class
    class ForeignErpError extends Error {
      readonly code = 'ERP_AUTH_FAILED';
      readonly retryable = false;
      constructor() {
        super('ERP_AUTH_FAILED: Login failed.');
        this.name = 'ErpError';
      }
    }
    const foreign = new ForeignErpError();
    expect(foreign instanceof ErpError).toBe(false);
    expect(isErpError(foreign)).toBe(true);
    expect(isErpError(new Error('ERP_AUTH_FAILED'))).toBe(false);
    expect(isErpError(Object.assign(new Error('x'), { name: 'ErpError' }))).toBe(false);
    expect(isErpError({ name: 'ErpError', code: 'ERP_AUTH_FAILED', retryable: false })).toBe(false);
    expect(isErpError(null)).toBe(false);
  });
});
