import type { Trx } from '~/core/db/with-tenant';

/** Door operators a Swedish installer services: brand, model, sensor, where they sit. */
const DOORS = [
  {
    title: 'Entrédörr',
    brand: 'ASSA ABLOY',
    model: 'SW200',
    sensor: 'BEA Eagle One',
    location: 'Huvudentré plan 1',
    warrantyUntil: '2027-05-31',
  },
  {
    title: 'Skjutdörr reception',
    brand: 'Dormakaba',
    model: 'ES 200',
    sensor: 'BEA Ixio-DT1',
    location: 'Reception',
    warrantyUntil: '2026-11-30',
  },
  {
    title: 'Garageport',
    brand: 'GEZE',
    model: 'Slimdrive EMD-F',
    sensor: 'GC 342',
    location: 'Garage plan -1',
    warrantyUntil: null,
  },
  {
    title: 'Handikappdörr',
    brand: 'ASSA ABLOY',
    model: 'SW100',
    sensor: 'Tryckknapp',
    location: 'Sidoentré Storgatan',
    warrantyUntil: '2028-03-31',
  },
] as const;

/**
 * Demo door automatics on the demo company's first objects (by serial code), IDs `<serial>-<n>` as
 * the app proposes them. Does nothing without objects or when the objects already have some.
 */
export async function seedDemoDoorAutomatics(trx: Trx): Promise<void> {
  if (await trx('door_automatics').first('id')) return;
  const objects = (await trx('business_objects')
    .where({ status: 'active' })
    .orderByRaw('lower(serial_code), id')
    .limit(3)
    .select('id', 'serial_code')) as { id: string; serial_code: string }[];
  if (!objects.length) return;
  await trx('door_automatics').insert(
    DOORS.map((d, i) => {
      const object = objects[i % objects.length]!;
      return {
        number: `${object.serial_code}-${Math.floor(i / objects.length) + 1}`,
        business_object_id: object.id,
        title: d.title,
        brand: d.brand,
        model: d.model,
        sensor: d.sensor,
        location: d.location,
        warranty_until: d.warrantyUntil,
      };
    }),
  );
}
