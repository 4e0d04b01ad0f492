import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist';
import { Button, Spinner } from '~/app/components/ui';

/** Spec section 9: the PDF preview zooms from 0.6 to 2 in steps of 0.2 and shows at most 100 pages. */
export const PDF_ZOOM = { min: 0.6, max: 2, step: 0.2, initial: 1 } as const;
export const PDF_MAX_PAGES = 100;

/**
 * A PDF drawn page by page into canvases with pdf.js (its worker from our own origin: the page's
 * Content-Security-Policy allows nothing else), with zoom buttons. Loaded only when a PDF is
 * previewed.
 */
export default function PdfPreview({ src }: { src: string }) {
  const { t } = useTranslation('files');
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [zoom, setZoom] = useState<number>(PDF_ZOOM.initial);
  const pages = useRef<HTMLDivElement>(null);

  // pdf.js 6: the loading task owns the document and its worker; destroying the task frees both
  // (the document itself has no destroy() any more, and calling it crashed the page on close)
  useEffect(() => {
    let live = true;
    let task: PDFDocumentLoadingTask | null = null;
    const release = () => void task?.destroy().catch(() => undefined);
    (async () => {
      const pdfjs = await import('pdfjs-dist');
      const worker = await import('pdfjs-dist/build/pdf.worker.min.mjs?url');
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      task = pdfjs.getDocument({ url: src, withCredentials: true });
      if (!live) return release();
      const loaded = await task.promise;
      if (live) setDoc(loaded);
    })().catch(() => live && setFailed(true));
    return () => {
      live = false;
      release();
    };
  }, [src]);

  useEffect(() => {
    if (!doc || !pages.current) return;
    const holder = pages.current;
    const tasks: { cancel(): void }[] = [];
    let live = true;
    holder.replaceChildren();
    (async () => {
      for (let n = 1; n <= Math.min(doc.numPages, PDF_MAX_PAGES) && live; n++) {
        const page = await doc.getPage(n);
        const viewport = page.getViewport({ scale: zoom * (window.devicePixelRatio || 1) });
        const canvas = document.createElement('canvas');
        canvas.width = viewport.width;
        canvas.height = viewport.height;
        canvas.style.width = `${viewport.width / (window.devicePixelRatio || 1)}px`;
        canvas.className = 'mx-auto mb-3 max-w-none shadow';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', t('page', { page: n, pages: doc.numPages }));
        holder.appendChild(canvas);
        const task = page.render({ canvas, viewport });
        tasks.push(task);
        await task.promise.catch(() => undefined);
      }
    })().catch(() => live && setFailed(true));
    return () => {
      live = false;
      tasks.forEach((x) => x.cancel());
    };
  }, [doc, zoom, t]);

  if (failed) return <p role="alert">{t('previewFailed')}</p>;
  const step = (by: number) =>
    setZoom((z) => Math.round(Math.min(PDF_ZOOM.max, Math.max(PDF_ZOOM.min, z + by)) * 10) / 10);
  return (
    <div>
      <div
        className="mb-2 flex items-center gap-2"
        role="group"
        aria-label={t('zoom', { percent: Math.round(zoom * 100) })}
      >
        <Button size="sm" onPress={() => step(-PDF_ZOOM.step)} isDisabled={zoom <= PDF_ZOOM.min}>
          {t('zoomOut')}
        </Button>
        <output aria-live="polite" className="min-w-14 text-center text-sm">
          {t('zoom', { percent: Math.round(zoom * 100) })}
        </output>
        <Button size="sm" onPress={() => step(PDF_ZOOM.step)} isDisabled={zoom >= PDF_ZOOM.max}>
          {t('zoomIn')}
        </Button>
        {doc && <span className="text-sm text-gray-600">{t('page', { page: 1, pages: doc.numPages })}</span>}
      </div>
      {doc && doc.numPages > PDF_MAX_PAGES && (
        <p className="mb-2 text-sm text-gray-700">{t('pagesCapped', { max: PDF_MAX_PAGES, pages: doc.numPages })}</p>
      )}
      {!doc && <Spinner />}
      <div ref={pages} className="max-h-[65dvh] overflow-auto bg-gray-100 p-2" data-testid="pdf-pages" />
    </div>
  );
}
