import { randomUUID } from 'node:crypto';
import { sealCodeValue } from '~/core/business-objects/access-codes.service';
import { newQrRef } from '~/core/business-objects/business-object.service';
import { tenantIdOf, type Trx } from '~/core/db/with-tenant';

/**
 * The demo company's installed equipment: models of the brands a Swedish security installer
 * fits, 25 objects at the demo customers' sites (customer numbers 10001…10015, left unlinked
 * when those customers are missing), each with a QR reference; access codes sealed like the app
 * seals them, with their security-log rows; burglar-alarm and camera forms; service-log entries.
 * Idempotent: a model whose code or an object whose serial code exists is left alone.
 */

export const DEMO_MODELS = [
  { code: 'GFX50', name: 'Galaxy Flex 50', kind: 'alarm' },
  { code: 'GFX100', name: 'Galaxy Flex 100', kind: 'alarm' },
  { code: 'SPC5330', name: 'Vanderbilt SPC5330', kind: 'alarm' },
  { code: 'M3106', name: 'Axis M3106-LVE Mk II', kind: 'camera' },
  { code: 'P3245', name: 'Axis P3245-LVE', kind: 'camera' },
  { code: 'SW200', name: 'ASSA Abloy SW200', kind: 'door' },
  { code: 'SL500', name: 'ASSA Abloy SL500', kind: 'door' },
  { code: 'RCO-M5', name: 'RCO R-CARD M5', kind: 'access' },
  { code: 'CS4000', name: 'Consilium Salwico CS4000', kind: 'fire' },
] as const;

/** What a demo model is: a burglar alarm, a camera, a door operator, an access system or a fire alarm. */
export type DemoObjectKind = (typeof DEMO_MODELS)[number]['kind'];

/** The kind of object a work order's title is about (null: any object, or none, will do). */
export function objectKindOfTitle(title: string): DemoObjectKind | null {
  if (/kamera/i.test(title)) return 'camera';
  if (/dörr/i.test(title)) return 'door';
  if (/brandlarm/i.test(title)) return 'fire';
  if (/passer|kortläsare|taggar|kodlås/i.test(title)) return 'access';
  if (/larm|detektor/i.test(title)) return 'alarm';
  return null;
}

type ModelCode = (typeof DEMO_MODELS)[number]['code'];

interface DemoObject {
  serial: string;
  model: ModelCode;
  customer: string | null;
  location: string;
  location2?: string;
  location3: string;
  description?: string;
}

export const DEMO_OBJECTS: DemoObject[] = [
  {
    serial: '50001',
    model: 'GFX50',
    customer: '10001',
    location: 'Teknikrum, källarplan',
    location2: 'Storgatan 12',
    location3: 'Västerås',
    description: 'Inbrottslarm, 12 sektioner, larmklass 2',
  },
  {
    serial: '50002',
    model: 'M3106',
    customer: '10001',
    location: 'Entré, ovanför dörren',
    location2: 'Storgatan 12',
    location3: 'Västerås',
  },
  {
    serial: '50003',
    model: 'SW200',
    customer: '10001',
    location: 'Huvudentré',
    location2: 'Storgatan 12',
    location3: 'Västerås',
    description: 'Dörrautomatik med radarsensor',
  },
  {
    serial: '50004',
    model: 'GFX100',
    customer: '10002',
    location: 'Kontor plan 2, städskrubb',
    location2: 'Kungsgatan 5',
    location3: 'Eskilstuna',
  },
  {
    serial: '50005',
    model: 'RCO-M5',
    customer: '10002',
    location: 'Serverrum',
    location2: 'Kungsgatan 5',
    location3: 'Eskilstuna',
    description: 'Passersystem, 8 dörrar',
  },
  {
    serial: '50006',
    model: 'P3245',
    customer: '10002',
    location: 'Lastkaj',
    location2: 'Kungsgatan 5',
    location3: 'Eskilstuna',
  },
  {
    serial: '50007',
    model: 'CS4000',
    customer: '10003',
    location: 'Brandcentral vid entré',
    location2: 'Industrivägen 3',
    location3: 'Köping',
    description: 'Brandlarm kopplat till räddningstjänsten',
  },
  {
    serial: '50008',
    model: 'SPC5330',
    customer: '10003',
    location: 'Verkstad, vid kontoret',
    location2: 'Industrivägen 3',
    location3: 'Köping',
  },
  {
    serial: '50009',
    model: 'SL500',
    customer: '10004',
    location: 'Butiksentré',
    location2: 'Drottninggatan 21',
    location3: 'Uppsala',
    description: 'Skjutdörr, dubbelverkande',
  },
  {
    serial: '50010',
    model: 'M3106',
    customer: '10004',
    location: 'Kassalinje',
    location2: 'Drottninggatan 21',
    location3: 'Uppsala',
  },
  {
    serial: '50011',
    model: 'M3106',
    customer: '10004',
    location: 'Lager',
    location2: 'Drottninggatan 21',
    location3: 'Uppsala',
  },
  {
    serial: '50012',
    model: 'GFX50',
    customer: '10005',
    location: 'Hall, trappuppgång A',
    location2: 'Björkvägen 8',
    location3: 'Sala',
  },
  {
    serial: '50013',
    model: 'SW200',
    customer: '10006',
    location: 'Entré äldreboende',
    location2: 'Vårdvägen 2',
    location3: 'Enköping',
    description: 'Handikappdörr med tryckknappar',
  },
  {
    serial: '50014',
    model: 'RCO-M5',
    customer: '10006',
    location: 'Personalingång',
    location2: 'Vårdvägen 2',
    location3: 'Enköping',
  },
  {
    serial: '50015',
    model: 'CS4000',
    customer: '10007',
    location: 'Entréplan, teknikskåp',
    location2: 'Skolgatan 14',
    location3: 'Arboga',
  },
  {
    serial: '50016',
    model: 'GFX100',
    customer: '10008',
    location: 'Kontor, bakom receptionen',
    location2: 'Hamngatan 30',
    location3: 'Stockholm',
  },
  {
    serial: '50017',
    model: 'P3245',
    customer: '10008',
    location: 'Garage, nedfart',
    location2: 'Hamngatan 30',
    location3: 'Stockholm',
  },
  {
    serial: '50018',
    model: 'SPC5330',
    customer: '10009',
    location: 'Apotek, personalrum',
    location2: 'Torget 1',
    location3: 'Fagersta',
  },
  {
    serial: '50019',
    model: 'SL500',
    customer: '10010',
    location: 'Vårdcentral, entré',
    location2: 'Parkvägen 4',
    location3: 'Hallstahammar',
  },
  {
    serial: '50020',
    model: 'GFX50',
    customer: '10011',
    location: 'Villa, hall',
    location2: 'Ekbacken 7',
    location3: 'Surahammar',
  },
  {
    serial: '50021',
    model: 'M3106',
    customer: '10012',
    location: 'Restaurang, bar',
    location2: 'Sjögatan 2',
    location3: 'Västerås',
  },
  {
    serial: '50022',
    model: 'RCO-M5',
    customer: '10013',
    location: 'Kommunhus, plan 1',
    location2: 'Stadshustorget 1',
    location3: 'Köping',
  },
  {
    serial: '50023',
    model: 'CS4000',
    customer: '10014',
    location: 'Idrottshall, förråd',
    location2: 'Sportvägen 10',
    location3: 'Kungsör',
  },
  {
    serial: '50024',
    model: 'SW200',
    customer: '10015',
    location: 'Bibliotek, entré',
    location2: 'Biblioteksgatan 3',
    location3: 'Norberg',
  },
  {
    serial: '50025',
    model: 'GFX100',
    customer: null,
    location: 'Demoväska i servicebilen',
    location3: 'Västerås',
    description: 'Utställningsanläggning för mässor',
  },
];

/** Access codes of a few objects (values as a technician would type them). */
const DEMO_CODES: { serial: string; groups: { name: string; codes: [string, string][] }[] }[] = [
  {
    serial: '50001',
    groups: [
      {
        name: 'Larmkoder',
        codes: [
          ['Huvudkod', '4711'],
          ['Servicekod', '8842'],
          ['Städbolag', '2580'],
        ],
      },
      { name: 'Larmcentral', codes: [['Lösenord vid larm', 'Solros']] },
    ],
  },
  {
    serial: '50005',
    groups: [
      {
        name: 'Passersystem',
        codes: [
          ['Administratör', 'rco-Adm-7731'],
          ['Portkod entré', '1357#'],
        ],
      },
    ],
  },
  {
    serial: '50012',
    groups: [
      {
        name: 'Larmkoder',
        codes: [
          ['Huvudkod', '9034'],
          ['Servicekod', '6621'],
        ],
      },
    ],
  },
];

const SERVICE_LOG: { serial: string; days: number; entry: string }[] = [
  { serial: '50001', days: 200, entry: 'Årlig revision utförd. Batteri 12 V 7 Ah bytt, samtliga detektorer testade.' },
  { serial: '50001', days: 35, entry: 'Falsklarm sektion 4 (lager). Rörelsedetektor omriktad bort från fläkt.' },
  { serial: '50003', days: 90, entry: 'Service enligt avtal: radarsensor justerad, stängningskraft kontrollerad.' },
  {
    serial: '50007',
    days: 120,
    entry: 'Kvartalsprov brandlarm, alla larmdon fungerar. Kvittens från räddningstjänsten.',
  },
  { serial: '50009', days: 14, entry: 'Dörren gick trögt. Bytt drivrem och rengjort skenor.' },
];

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

export async function seedDemoObjects(trx: Trx): Promise<void> {
  const tenantId = await tenantIdOf(trx);
  await trx.raw(`insert into models (code, name) select * from unnest(?::text[], ?::text[]) on conflict do nothing`, [
    DEMO_MODELS.map((m) => m.code),
    DEMO_MODELS.map((m) => m.name),
  ]);
  const models = new Map<string, string>(
    (await trx('models').select('id', 'code')).map((m: { id: string; code: string }) => [m.code.toUpperCase(), m.id]),
  );
  const customers = new Map<string, string>(
    (await trx('customers').whereNotNull('customer_id').select('id', 'customer_id')).map(
      (c: { id: string; customer_id: string }) => [c.customer_id, c.id],
    ),
  );
  const existing = new Set(
    (
      await trx('business_objects')
        .whereIn(
          'serial_code',
          DEMO_OBJECTS.map((o) => o.serial),
        )
        .select('serial_code')
    ).map((r: { serial_code: string }) => r.serial_code),
  );
  const fresh = DEMO_OBJECTS.filter((o) => !existing.has(o.serial));
  if (!fresh.length) return;
  const inserted: { id: string; serial_code: string }[] = await trx('business_objects')
    .insert(
      fresh.map((o) => ({
        serial_code: o.serial,
        model_id: models.get(o.model.toUpperCase()) ?? null,
        customer_id: (o.customer && customers.get(o.customer)) ?? null,
        location: o.location,
        location2: o.location2 ?? null,
        location3: o.location3,
        description: o.description ?? null,
        qr_ref: newQrRef(),
      })),
    )
    .returning(['id', 'serial_code']);
  const ids = new Map(inserted.map((r) => [r.serial_code, r.id]));

  const users = new Map<string, { id: string; name: string }>(
    (await trx('users').select('id', 'email', 'name')).map((u: { id: string; email: string; name: string }) => [
      u.email,
      { id: u.id, name: u.name },
    ]),
  );
  const admin = users.get('admin@nordlarm.se') ?? null;
  const technician = users.get('erik.tekniker@nordlarm.se') ?? admin;

  for (const object of DEMO_CODES) {
    const boId = ids.get(object.serial);
    if (!boId) continue;
    for (const [g, group] of object.groups.entries()) {
      const groupId = randomUUID();
      await trx('code_groups').insert({
        id: groupId,
        business_object_id: boId,
        display_name: group.name,
        sort_order: g,
      });
      const log = (type: string, to: { displayName: string; groupName: string }) => ({
        type,
        business_object_id: boId,
        business_object_serial_code: object.serial,
        to_value: JSON.stringify(to),
        user_id: admin?.id ?? null,
        user_name: admin?.name ?? 'Demo',
        at: daysAgo(60),
      });
      const rows = [log('add.group', { displayName: group.name, groupName: group.name })];
      for (const [c, [name, value]] of group.codes.entries()) {
        const codeId = randomUUID();
        await trx('codes').insert({
          id: codeId,
          group_id: groupId,
          display_name: name,
          sort_order: c,
          value_sealed: sealCodeValue(tenantId, codeId, value),
        });
        rows.push(log('add.code', { displayName: name, groupName: group.name }));
      }
      await trx('security_log').insert(rows);
    }
  }

  const burglary = ids.get('50001');
  if (burglary)
    await trx('business_object_forms').insert({
      business_object_id: burglary,
      type: 'burglary',
      updated_by: technician?.id ?? null,
      data: JSON.stringify({
        controlPanel: 'Galaxy Flex 50',
        panelLocation: 'Teknikrum, källarplan',
        certificationClass: 'class2',
        installerCertificate: 'SBSC 2419',
        installationDate: '2021-09-14',
        alarmReceivingCentre: 'Securitas Larmcentral',
        transmission: 'dual_path',
        transmitterId: 'NL-50001',
        numberOfZones: 12,
        detectors: '10 rörelsedetektorer, 2 magnetkontakter',
        indoorSirens: 1,
        outdoorSirens: 1,
        keypads: 2,
        battery: '12 V 7 Ah',
      }),
    });
  const camera = ids.get('50002');
  if (camera)
    await trx('business_object_forms').insert({
      business_object_id: camera,
      type: 'camera',
      updated_by: technician?.id ?? null,
      data: JSON.stringify({
        recorder: 'Axis S3008',
        recorderLocation: 'Teknikrum, källarplan',
        numberOfCameras: 4,
        storageDays: 14,
        remoteAccess: true,
        remoteAccessMethod: 'Axis Companion via app',
        signage: true,
        privacyAssessment: true,
      }),
    });

  const entries = SERVICE_LOG.filter((l) => ids.has(l.serial)).map((l) => ({
    business_object_id: ids.get(l.serial)!,
    entry: l.entry,
    user_id: technician?.id ?? null,
    created_at: daysAgo(l.days),
  }));
  if (entries.length) await trx('service_log').insert(entries);
}
