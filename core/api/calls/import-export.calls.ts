import { z } from 'zod';
import { exportCsv, previewImport, runImport } from '~/core/import-export/import-export.service';
import { defineCall, Reply, type ApiCall } from '../define-call';

const ZRegister = z.enum(['customers', 'objects', 'articles'], { error: 'NOT_FOUND' });

/** CSV import and export of the registers (settings:import_export); the settings page uses the same service. */
export const importExportCalls: ApiCall[] = [
  defineCall({
    method: 'POST',
    path: '/import/:register',
    access: { permission: 'settings:import_export' },
    input: z.object({
      register: ZRegister,
      mode: z.enum(['preview', 'valid', 'all'], { error: 'ERROR_INVALID_VALUE' }).default('preview'),
      body: z.string({ error: 'IMPORT_FILE_EMPTY' }),
    }),
    summary:
      'Imports a CSV file (Content-Type text/csv) into customers, objects or articles: ?mode=preview checks every row and ' +
      'writes nothing; valid imports the good rows; all imports every row or none (400 IMPORT_HAS_ERRORS)',
    handler: (ctx, input) =>
      input.mode === 'preview'
        ? previewImport(ctx, input.register, input.body)
        : runImport(ctx, input.register, input.body, input.mode),
  }),
  defineCall({
    method: 'GET',
    path: '/export/:register',
    access: { permission: 'settings:import_export' },
    input: z.looseObject({ register: ZRegister }),
    summary: "A register as CSV (semicolons, UTF-8 with BOM), filtered by the list's query parameters",
    async handler(ctx, { register, ...filters }) {
      let csv = '';
      for await (const chunk of exportCsv(ctx, register, filters as Record<string, string>)) csv += chunk;
      return new Reply(200, csv, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${register}.csv"`,
        'Cache-Control': 'no-store',
      });
    },
  }),
];
