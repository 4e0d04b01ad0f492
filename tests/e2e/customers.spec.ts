import { expect, test } from './fixtures';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

let app: RunningApp;
let smtp: SmtpPeer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // A real SMTP peer: the zone invitation is read off the wire.
  smtp = await startSmtpPeer();
  app = await startApp({ SMTP_URL: smtp.url });
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

test('[customers] create a customer with contacts and two addresses, switch the primary, find it, invite a zone user', async ({
  page,
}) => {
  await signIn(page, app, '/inventory/customers');
  await expect(page.getByRole('heading', { name: 'Kunder' })).toBeVisible();
  await hydrated(page);
  await page.getByRole('link', { name: 'Ny kund' }).click();
  await expect(page.getByRole('heading', { name: 'Ny kund' })).toBeVisible();
  await hydrated(page);

  await page.getByLabel('Företagsnamn').fill('Brf Vitsippan');
  await page.getByRole('button', { name: 'Föreslå' }).click();
  await expect(page.getByLabel('Kundnummer')).toHaveValue(/^\d{5}$/);
  const number = await page.getByLabel('Kundnummer').inputValue();
  await page.getByLabel('Organisationsnummer').fill('769612-3456');
  await page.getByLabel('E-post för fakturor').fill('faktura-vitsippan');

  await page.getByRole('button', { name: 'Lägg till kontakt' }).click();
  const contact = page.getByRole('listitem', { name: 'Kontakt 1' });
  await expect(contact.getByLabel('Namn')).toBeFocused();
  await contact.getByLabel('Namn').fill('Eva Ek');
  await contact.getByLabel('Roll').fill('Ordförande');
  await contact.getByLabel('Telefon').fill('070-111 22 33');

  await page.getByRole('button', { name: 'Lägg till adress' }).click();
  const first = page.getByRole('listitem', { name: 'Adress 1' });
  await first.getByLabel('Gatuadress').fill('Vitsippsvägen 1');
  await first.getByRole('textbox', { name: 'Ort', exact: true }).fill('Stockholm');
  // The first address is primary by itself.
  await expect(first.getByRole('radio', { name: 'Primär adress' })).toBeChecked();
  await page.getByRole('button', { name: 'Lägg till adress' }).click();
  const second = page.getByRole('listitem', { name: 'Adress 2' });
  await second.getByLabel('Gatuadress').fill('Vitsippsvägen 3');
  await second.getByLabel('Postnummer').fill('123 45');
  await second.getByRole('textbox', { name: 'Ort', exact: true }).fill('Stockholm');
  await second.getByRole('radio', { name: 'Primär adress' }).check();
  await expect(first.getByRole('radio', { name: 'Primär adress' })).not.toBeChecked();

  // A bad address is refused next to its field, and nothing typed is lost.
  await page.getByRole('button', { name: 'Skapa kund' }).click();
  await expect(page.getByText('Ange en giltig e-postadress')).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Adress 2' }).getByLabel('Gatuadress')).toHaveValue(
    'Vitsippsvägen 3',
  );
  await page.getByLabel('E-post för fakturor').fill('faktura@vitsippan.se');
  await page.getByRole('button', { name: 'Skapa kund' }).click();

  await expect(page.getByRole('heading', { name: 'Brf Vitsippan' })).toBeVisible();
  await expect(page.getByText('Kunden är skapad.')).toBeVisible();
  await expect(page.getByText(`Kundnummer ${number}`)).toBeVisible();
  await hydrated(page);
  await expect(
    page.getByRole('listitem', { name: 'Adress 2' }).getByRole('radio', { name: 'Primär adress' }),
  ).toBeChecked();
  await expect(page.getByRole('listitem', { name: 'Kontakt 1' }).getByLabel('Roll')).toHaveValue('Ordförande');

  // Switch the primary back and save: it stays after a reload.
  await page.getByRole('listitem', { name: 'Adress 1' }).getByRole('radio', { name: 'Primär adress' }).check();
  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sparat' })).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(
    page.getByRole('listitem', { name: 'Adress 1' }).getByRole('radio', { name: 'Primär adress' }),
  ).toBeChecked();

  // Search as you type in the list.
  await page.getByRole('link', { name: 'Alla kunder' }).click();
  await hydrated(page);
  await page.getByLabel('Sök kund').fill('vitsipp');
  await expect(page).toHaveURL(/q=vitsipp/);
  await expect(page.getByRole('row', { name: /Brf Vitsippan/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Brf Vitsippan/ })).toContainText('Vitsippsvägen 1, Stockholm');
  await page.getByLabel('Sök kund').fill('ingen sådan kund');
  await expect(page.getByText('Inga kunder matchar sökningen')).toBeVisible();
  await page.getByLabel('Sök kund').fill(number);
  await page.getByRole('row', { name: /Brf Vitsippan/ }).click();

  // Invite a person of the customer to the customer zone.
  await expect(page.getByRole('heading', { name: 'Brf Vitsippan' })).toBeVisible();
  await hydrated(page);
  const zone = page.getByRole('region', { name: 'Kundzon' });
  await zone.getByLabel('Namn').fill('Karin Kund');
  await zone.getByLabel('E-post').fill('karin@vitsippan.se');
  await zone.getByRole('button', { name: 'Skicka inbjudan' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'E-post skickat till karin@vitsippan.se' })).toBeVisible();
  await expect(zone.getByText('Inbjuden, har inte registrerat sig än')).toBeVisible();
  const mail = await smtp.waitForMail((m) => m.to.includes('karin@vitsippan.se'), 30_000);
  expect(mail.subject).toBe('Nordlarm Säkerhet AB bjuder in dig till kundzonen');
  expect(mail.text).toMatch(/\/zone\/register\?t=[\w-]+&lang=se/);
  await expect(page.getByRole('region', { name: 'Historik' })).toContainText('Inbjuden till kundzonen');
});

test('[customers] deleting asks first; a customer with objects says what uses it, one without goes', async ({
  page,
}) => {
  // The demo's Brf Solrosen (10001) has objects at its address.
  await signIn(page, app, '/inventory/customers?q=10001');
  await page.getByRole('row', { name: /Brf Solrosen/ }).click();
  await expect(page.getByRole('heading', { name: 'Brf Solrosen' })).toBeVisible();
  await hydrated(page);
  await page.getByRole('button', { name: 'Ta bort kund' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ta bort kund' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Kan inte tas bort: används av objekt: \d+/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Brf Solrosen' })).toBeVisible();

  await page.goto(`${app.url}/inventory/customers/new`);
  await expect(page.getByRole('heading', { name: 'Ny kund' })).toBeVisible();
  await hydrated(page);
  await page.getByLabel('Företagsnamn').fill('Kiosken på hörnet');
  await page.getByLabel('Kundnummer').fill('K-99');
  await page.getByRole('button', { name: 'Skapa kund' }).click();
  await expect(page.getByRole('heading', { name: 'Kiosken på hörnet' })).toBeVisible();
  await hydrated(page);
  await page.getByRole('button', { name: 'Ta bort kund' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Kiosken på hörnet tas bort');
  await dialog.getByRole('button', { name: 'Ta bort kund' }).click();
  await expect(page.getByText('Kunden är borttagen.')).toBeVisible();
  await expect(page.getByRole('row', { name: /Kiosken/ })).toHaveCount(0);
});

test('[customers] a technician reads customers but gets no editing', async ({ page }) => {
  await signIn(page, app, '/inventory/customers', 'erik.tekniker@nordlarm.se');
  await expect(page.getByRole('heading', { name: 'Kunder' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ny kund' })).toHaveCount(0);
  await page.goto(`${app.url}/inventory/customers/new`);
  await expect(page.getByRole('heading', { name: 'Åtkomst nekad' })).toBeVisible();
});
