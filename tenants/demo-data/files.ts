import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Trx } from '~/core/db/with-tenant';
import { deleteStored, getFileStore } from '~/core/files/store';
import { THUMBNAIL_SIZE } from '~/core/files/receive';

/**
 * The demo company's files (issue 12): a drive with manuals and templates (a service routine as a
 * real one-page PDF, links to suppliers' support pages), and a floor plan on the first object,
 * shown on that object's work orders. The bytes go through the FileStore like any upload's.
 * Idempotent: a drive that has anything is left alone.
 */

/** A one-page A4 PDF of a heading and lines of text (Helvetica, Latin-1: Swedish letters print). */
export function simplePdf(title: string, lines: readonly string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = [
    `BT /F1 18 Tf 56 780 Td (${esc(title)}) Tj ET`,
    ...lines.map((l, i) => `BT /F1 11 Tf 56 ${748 - i * 18} Td (${esc(l)}) Tj ET`),
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A floor plan drawn as an image: rooms, a door, detectors and the control panel. */
async function floorPlan(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
    <rect width="1200" height="800" fill="#fbfbf8"/>
    <g fill="none" stroke="#1f2937" stroke-width="10">
      <rect x="60" y="60" width="1080" height="680"/>
      <line x1="520" y1="60" x2="520" y2="460"/><line x1="60" y1="460" x2="860" y2="460"/>
      <line x1="860" y1="300" x2="860" y2="740"/>
    </g>
    <rect x="600" y="730" width="120" height="20" fill="#fbfbf8"/>
    <g fill="#dc2626"><circle cx="290" cy="260" r="18"/><circle cx="760" cy="220" r="18"/><circle cx="1000" cy="560" r="18"/><circle cx="420" cy="600" r="18"/></g>
    <rect x="880" y="480" width="60" height="40" fill="#2563eb"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The demo's file bytes, stored before its unit of work (no file-store call inside one, decision 049). */
export interface DemoFiles {
  routine: { key: string; size: number };
  plan: { key: string; thumbKey: string; size: number };
  /** Every key stored: deleted again when the seeding does not use them. */
  keys: string[];
}

/** Stores the demo's files (a routine PDF, a floor plan and its thumbnail) in the FileStore. */
export async function storeDemoFiles(schema: string): Promise<DemoFiles> {
  const store = getFileStore();
  const keys: string[] = [];
  const put = async (body: Buffer) => {
    const key = `${schema}/${randomUUID()}`;
    keys.push(key);
    await store.put(key, Readable.from([body]));
    return key;
  };
  try {
    const routine = simplePdf('Servicerutin larmcentral', [
      '1. Kontrollera larmcentralens batteri och nätdel (spänning, datum).',
      '2. Provlarma samtliga sektioner och kontrollera överföring till larmcentral.',
      '3. Kontrollera sabotagekontakter på centralapparat och manöverpaneler.',
      '4. Rengör och funktionsprova rörelsedetektorer.',
      '5. Notera avvikelser i serviceloggen och informera kunden.',
    ]);
    const plan = await floorPlan();
    const small = await sharp(plan)
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside' })
      .webp()
      .toBuffer();
    const routineKey = await put(routine);
    const planKey = await put(plan);
    const thumbKey = `${planKey}-thumb`;
    keys.push(thumbKey);
    await store.put(thumbKey, Readable.from([small]));
    return {
      routine: { key: routineKey, size: routine.length },
      plan: { key: planKey, thumbKey, size: plan.length },
      keys,
    };
  } catch (e) {
    await deleteStored(keys);
    throw e;
  }
}

/**
 * The rows of the demo's files, in the seeding's unit of work; false (and nothing written) when the
 * drive already has something, and then the caller deletes the stored bytes.
 */
export async function seedDemoFiles(trx: Trx, files: DemoFiles): Promise<boolean> {
  if (await trx('files').where({ owner_type: 'drive' }).first('id')) return false;
  {
    const folder = async (name: string, sort: number) =>
      (await trx('files').insert({ owner_type: 'drive', kind: 'folder', name, sort_order: sort }).returning('id'))[0]
        .id as string;
    const manuals = await folder('Manualer', 0);
    await folder('Mallar', 1);
    await folder('Prislistor', 2);
    await trx('files').insert([
      {
        owner_type: 'drive',
        folder_id: manuals,
        kind: 'file',
        name: 'Servicerutin larmcentral.pdf',
        storage_key: files.routine.key,
        content_type: 'application/pdf',
        size: files.routine.size,
        sort_order: 0,
      },
      {
        owner_type: 'drive',
        folder_id: manuals,
        kind: 'link',
        name: 'Axis support',
        link: 'https://www.axis.com/support',
        sort_order: 1,
      },
      {
        owner_type: 'drive',
        kind: 'link',
        name: 'Elsäkerhetsverket',
        link: 'https://www.elsakerhetsverket.se',
        sort_order: 3,
      },
    ]);
    const bo = await trx('business_objects').orderBy('serial_code').first('id');
    if (bo)
      await trx('files').insert({
        owner_type: 'bo',
        owner_id: bo.id,
        kind: 'file',
        name: 'Ritning plan 1.png',
        storage_key: files.plan.key,
        thumb_key: files.plan.thumbKey,
        content_type: 'image/png',
        size: files.plan.size,
        is_default: true,
      });
  }
  return true;
}
