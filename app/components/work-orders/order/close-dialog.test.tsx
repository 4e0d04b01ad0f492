import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { CloseDialog, CopyDialog, ProjectExtraControl, ReopenButton, type ClosePanelData } from './close-dialog';

/** Server-render tests of the order screen's close, reopen, copy and ATA controls, every key present. */
const render = await englishRenderer(['workorderclose']);

const base: ClosePanelData = {
  canClose: true,
  canReopen: false,
  canCopy: true,
  isClosed: false,
  customerNumberMissing: false,
  sendToErp: true,
  reverseVat: false,
  invoiceDetails: true,
  feeEnabled: true,
  defaultFee: '40.00',
  articleTotal: '100.00',
  invoiceDate: '2026-05-04',
  deliveryDate: '2026-05-04',
  broadcastAvailable: true,
  broadcastEmail: 'larm@kund.se',
  closingStatuses: [{ id: 's1', name: 'Klar' }],
  signature: null,
  projectExtra: { inProject: false, status: null, canCreate: true, canAccept: true },
};

const all = (data: ClosePanelData) =>
  render(
    <>
      <CloseDialog workOrderId="w1" data={data} />
      <ReopenButton workOrderId="w1" data={data} />
      <CopyDialog workOrderId="w1" data={data} />
      <ProjectExtraControl workOrderId="w1" data={data} />
    </>,
  );

describe('[work orders] close controls', () => {
  it('an open order offers close and copy, not reopen; no ATA outside a project', () => {
    const html = all(base);
    expect(html).toContain('Close work order');
    expect(html).toContain('Copy as revisit');
    expect(html).not.toContain('Reopen');
    expect(html).not.toContain('Extra work (ATA)');
  });

  it('a closed order offers reopen, not close; nothing without the rights', () => {
    const closed = all({ ...base, canClose: false, canReopen: true, isClosed: true });
    expect(closed).toContain('Reopen');
    expect(closed).not.toContain('Close work order');
    const none = all({ ...base, canClose: false, canReopen: false, canCopy: false });
    expect(none).not.toMatch(/Close work order|Reopen|Copy as revisit/);
  });

  it('ATA: mark as extra work, then accept or decline with the right to', () => {
    const inProject = { ...base, projectExtra: { inProject: true, status: null, canCreate: true, canAccept: true } };
    const fresh = all(inProject);
    expect(fresh).toContain('Status: Not extra work');
    expect(fresh).toContain('Mark as extra work');
    expect(fresh).not.toContain('>Accept<');
    const pending = all({ ...inProject, projectExtra: { ...inProject.projectExtra, status: 'pending' } });
    expect(pending).toContain('Status: Pending');
    expect(pending).toContain('Accept');
    expect(pending).toContain('Decline');
    const viewer = all({
      ...inProject,
      projectExtra: { inProject: true, status: 'accepted', canCreate: false, canAccept: false },
    });
    expect(viewer).toContain('Status: Accepted');
    expect(viewer).not.toMatch(/Decline|Mark as extra work/);
  });
});
