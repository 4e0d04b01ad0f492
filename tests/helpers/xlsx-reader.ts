import ExcelJS from 'exceljs';

/**
 * Opens an .xlsx file with exceljs: a reader independent of the writer (write-excel-file), so a
 * workbook only passes when a second implementation of the format reads it (decision 044).
 */
export interface ReadSheet {
  name: string;
  /** Cell values by row, 1-based columns flattened to 0-based: text, number, Date or null. */
  rows: (string | number | Date | boolean | null)[][];
  /** The number format of each cell that has one other than General, by address ("B2"). */
  formats: Record<string, string>;
  /** Addresses of the bold cells. */
  bold: string[];
  /** Rows frozen at the top. */
  frozenRows: number;
  widths: (number | undefined)[];
}

export async function readXlsx(body: Buffer | Uint8Array): Promise<ReadSheet[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(body) as unknown as ArrayBuffer);
  return book.worksheets.map((ws) => {
    const rows: ReadSheet['rows'] = [];
    const formats: Record<string, string> = {};
    const bold: string[] = [];
    ws.eachRow({ includeEmpty: true }, (row, r) => {
      const out: ReadSheet['rows'][number] = [];
      row.eachCell({ includeEmpty: true }, (c, col) => {
        const v = c.value;
        out[col - 1] =
          v === null || v === undefined
            ? null
            : typeof v === 'object' && !(v instanceof Date) && 'richText' in v
              ? v.richText.map((t) => t.text).join('')
              : (v as string | number | Date | boolean);
        if (c.numFmt && c.numFmt !== 'General') formats[c.address] = c.numFmt;
        if (c.font?.bold) bold.push(c.address);
      });
      rows[r - 1] = Array.from(out, (v) => v ?? null);
    });
    const view = ws.views[0] as { state?: string; ySplit?: number } | undefined;
    return {
      name: ws.name,
      rows: Array.from(rows, (r) => r ?? []),
      formats,
      bold,
      frozenRows: view?.state === 'frozen' ? (view.ySplit ?? 0) : 0,
      widths: ws.columns?.map((c) => c.width) ?? [],
    };
  });
}
