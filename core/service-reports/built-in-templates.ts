import { randomUUID } from 'node:crypto';
import type { FieldKind, ReportField, ReportPage } from './service-report.types';

/*
 * The three templates every tenant starts with (issue 32), written from the public rules they follow
 * and editable like any other: the tenant adjusts the points and limits to its own routines. Written
 * in Swedish, the product's default language and that of the rules they cite; a tenant working in
 * another language edits the texts. Limits are the published figures where the rule gives one
 * (SS-EN 16005: static force ≤ 150 N for closing doors, break-out force ≤ 220 N; lead-acid standby
 * batteries float at about 13.5–13.8 V, below 12.0 V is a failed battery).
 */

type FieldSpec = Partial<Omit<ReportField, 'id' | 'kind' | 'label'>>;
const f = (kind: FieldKind, label: string, spec: FieldSpec = {}): ReportField => ({
  id: randomUUID(),
  kind,
  label,
  required: spec.required ?? false,
  unit: spec.unit ?? null,
  min: spec.min ?? null,
  max: spec.max ?? null,
  options: spec.options ?? [],
});
const page = (title: string, fields: ReportField[]): ReportPage => ({ id: randomUUID(), title, fields });
const yn = (label: string, required = true) => f('yesno', label, { required });

export interface BuiltInTemplate {
  key: 'intrusion_alarm' | 'powered_door' | 'general';
  title: string;
  description: string;
  perDoor: boolean;
  pages: ReportPage[];
}

function intrusionAlarm(): BuiltInTemplate {
  return {
    key: 'intrusion_alarm',
    title: 'Service inbrottslarm',
    description:
      'Periodisk service av inbrottslarmanläggning enligt SSF 130 / SBF:s regler: central, strömförsörjning, detektorer, larmöverföring och ljudgivare.',
    perDoor: false,
    pages: [
      page('Anläggning', [
        f('heading', 'Anläggningsuppgifter'),
        f('text', 'Centralapparat (fabrikat/modell)', { required: true }),
        f('choice', 'Larmklass', { options: ['1', '2', '3', '4'], required: true }),
        f('date', 'Föregående service'),
        yn('Händelselogg genomgången'),
        f('longtext', 'Händelser sedan föregående service'),
      ]),
      page('Strömförsörjning', [
        f('measure', 'Nätspänning', { unit: 'V', min: 207, max: 253, required: true }),
        f('measure', 'Batterispänning (laddning)', { unit: 'V', min: 13.2, max: 13.9, required: true }),
        f('measure', 'Batterispänning under belastning', { unit: 'V', min: 12.0, max: 13.9, required: true }),
        f('number', 'Batterikapacitet', { unit: 'Ah' }),
        f('date', 'Batteriets tillverkningsdatum'),
        yn('Nätavbrott larmar korrekt'),
      ]),
      page('Detektorer och sabotage', [
        yn('Samtliga detektorer gångtestade'),
        f('number', 'Antal testade detektorer', { unit: 'st' }),
        yn('Sabotagekontakter (central, detektorer, ljudgivare) fungerar'),
        yn('Detektorernas täckning oförändrad (inga hinder)'),
        yn('Magnetkontakter fungerar'),
        f('photo', 'Foton'),
      ]),
      page('Larmöverföring och ljudgivare', [
        yn('Provlarm mottaget av larmcentral'),
        f('text', 'Larmcentralens kvittens (namn/tid)'),
        yn('Reservväg för larmöverföring provad'),
        yn('Ljudgivare inne fungerar'),
        yn('Ljudgivare ute fungerar'),
        yn('Manöverpaneler fungerar'),
      ]),
      page('Avslut', [
        yn('Användarkoder och behörigheter genomgångna med kunden', false),
        yn('Anläggningen återställd och tillkopplingsbar'),
        f('longtext', 'Anmärkningar och åtgärder'),
      ]),
    ],
  };
}

function poweredDoor(): BuiltInTemplate {
  return {
    key: 'powered_door',
    title: 'Besiktning dörrautomatik (SS-EN 16005)',
    description:
      'Periodisk kontroll av automatisk gångdörr enligt SS-EN 16005, en rapport per dörrautomatik: skydd mot kläm- och skärskador, krafter, sensorer, nödutrymning och märkning.',
    perDoor: true,
    pages: [
      page('Dörr och miljö', [
        f('choice', 'Dörrtyp', { options: ['Skjutdörr', 'Slagdörr', 'Karuselldörr', 'Vikdörr'], required: true }),
        f('choice', 'Driftläge', { options: ['Full energi', 'Låg energi', 'Servo'], required: true }),
        yn('Riskbedömning finns och stämmer med användningen'),
        yn('Dörrens omgivning oförändrad (inga nya risker)'),
        f('photo', 'Foto på dörren'),
      ]),
      page('Skydd och sensorer', [
        yn('Närvarosensor i stängningsområdet fungerar'),
        yn('Sensor på slagdörrens öppningssida fungerar', false),
        yn('Aktiveringsenheter (radar, tryckknapp) fungerar'),
        yn('Klämskydd vid huvud- och sidokanter'),
        f('measure', 'Spalt vid sekundära stängningskanter', { unit: 'mm', max: 8 }),
        yn('Självövervakning av sensorer (test vid varje cykel)'),
      ]),
      page('Krafter och tider', [
        f('measure', 'Statisk stängningskraft', { unit: 'N', max: 150, required: true }),
        f('measure', 'Utbrytningskraft (nödutrymning)', { unit: 'N', max: 220 }),
        f('measure', 'Manuell öppningskraft vid strömavbrott', { unit: 'N', max: 150 }),
        f('measure', 'Öppethållningstid', { unit: 's', min: 1, max: 60 }),
        yn('Hastigheter inom tillverkarens inställning'),
      ]),
      page('Nödutrymning och strömavbrott', [
        yn('Dörren öppnar vid strömavbrott (utrymningsväg)', false),
        yn('Utbrytningsfunktion fungerar', false),
        yn('Nödstopp/programväljare fungerar'),
        yn('Batteribackup provad', false),
      ]),
      page('Märkning och avslut', [
        yn('Märkning av glas och dörr (kontrastmarkering)'),
        yn('Skylt för automatisk dörr finns'),
        yn('Bruksanvisning och servicelogg finns på plats'),
        f('longtext', 'Anmärkningar och åtgärder'),
      ]),
    ],
  };
}

function general(): BuiltInTemplate {
  return {
    key: 'general',
    title: 'Servicerapport',
    description: 'Allmän servicerapport: vad som kontrollerades, vad som hittades och vad som åtgärdades.',
    perDoor: false,
    pages: [
      page('Utfört arbete', [
        f('longtext', 'Felbeskrivning / uppdrag'),
        f('longtext', 'Utfört arbete', { required: true }),
        f('longtext', 'Använt material'),
        f('photo', 'Foton'),
      ]),
      page('Resultat', [
        f('choice', 'Status efter besöket', {
          options: ['I drift utan anmärkning', 'I drift med anmärkning', 'Ur drift'],
          required: true,
        }),
        yn('Uppföljning behövs', false),
        f('longtext', 'Anmärkningar och rekommendationer'),
      ]),
    ],
  };
}

/** Fresh copies (new ids each call): each tenant's template rows own their ids. */
export function builtInServiceReports(): BuiltInTemplate[] {
  return [intrusionAlarm(), poweredDoor(), general()];
}
