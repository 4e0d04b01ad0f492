import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '~/app/components/ui';

export interface SignatureValue {
  /** The signer's printed name. */
  name: string;
  /** The drawing as a PNG data URL, null until something is drawn. */
  image: string | null;
}

export interface SignaturePadProps {
  /** Label of the drawing area, already translated ("Customer's signature"). */
  label: string;
  value: SignatureValue;
  onChange: (value: SignatureValue) => void;
  /** Label of the printed-name field; the default says "Name in block letters". */
  nameLabel?: string;
  nameError?: string[];
  /** Whether the printed name must be given (a service report's signer); true unless told. */
  isNameRequired?: boolean;
  isDisabled?: boolean;
}

const HEIGHT = 180;

/**
 * A signature drawn with a finger, a pen or a mouse (pointer events, pressure ignored), with the
 * signer's printed name beside it (issue 32). The same pad serves service reports, the work-order
 * signature and the security form export. Drawing is optional for someone who cannot use a
 * pointer: the typed name alone is a signature the documents print. The canvas keeps its drawing
 * when the page scrolls (touch-action: none inside it only).
 */
export function SignaturePad({
  label,
  value,
  onChange,
  nameLabel,
  nameError,
  isNameRequired = true,
  isDisabled,
}: SignaturePadProps) {
  const { t } = useTranslation('servicereports');
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const last = useRef<{ x: number; y: number } | null>(null);
  const [hasInk, setHasInk] = useState(Boolean(value.image));
  const id = useId();
  const latest = useRef(value);
  latest.current = value;

  // size the backing store to the element and the screen's density; redraw a saved image
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ratio = window.devicePixelRatio || 1;
    const width = c.clientWidth || 320;
    c.width = Math.round(width * ratio);
    c.height = Math.round(HEIGHT * ratio);
    const g = c.getContext('2d');
    if (!g) return;
    g.scale(ratio, ratio);
    g.lineCap = 'round';
    g.lineJoin = 'round';
    g.lineWidth = 2.5;
    g.strokeStyle = '#0f172a';
    if (value.image) {
      const img = new Image();
      img.onload = () => g.drawImage(img, 0, 0, width, HEIGHT);
      img.src = value.image;
    }
    // only on mount: later images come from this pad itself
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  function stroke(to: { x: number; y: number }) {
    const g = canvas.current?.getContext('2d');
    const from = last.current ?? to;
    if (!g) return;
    g.beginPath();
    g.moveTo(from.x, from.y);
    // a dot for a tap
    g.lineTo(to.x + (from === to ? 0.1 : 0), to.y);
    g.stroke();
    last.current = to;
  }

  function finish() {
    if (!drawing.current) return;
    drawing.current = false;
    last.current = null;
    const c = canvas.current;
    if (c) onChange({ ...latest.current, image: c.toDataURL('image/png') });
  }

  function clear() {
    const c = canvas.current;
    const g = c?.getContext('2d');
    if (c && g) g.clearRect(0, 0, c.width, c.height);
    setHasInk(false);
    onChange({ ...latest.current, image: null });
  }

  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <span id={`${id}-label`} className="text-sm font-medium text-gray-900">
          {label}
        </span>
        <Button size="sm" variant="ghost" onPress={clear} isDisabled={isDisabled || !hasInk}>
          {t('signature.clear')}
        </Button>
      </div>
      <canvas
        ref={canvas}
        role="img"
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-help`}
        data-testid="signature-pad"
        className={`h-[180px] w-full touch-none rounded-md border-2 border-dashed bg-white ${
          isDisabled ? 'cursor-not-allowed border-slate-200' : 'cursor-crosshair border-slate-400'
        }`}
        onPointerDown={(e) => {
          if (isDisabled) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drawing.current = true;
          last.current = null;
          setHasInk(true);
          stroke(point(e));
        }}
        onPointerMove={(e) => {
          if (drawing.current) stroke(point(e));
        }}
        onPointerUp={finish}
        onPointerCancel={finish}
        onLostPointerCapture={finish}
      />
      <p id={`${id}-help`} className="text-xs text-slate-600">
        {t('signature.help')}
      </p>
      <TextField
        label={nameLabel ?? t('signature.name')}
        value={value.name}
        onChange={(name) => onChange({ ...latest.current, name })}
        isRequired={isNameRequired}
        maxLength={200}
        autoComplete="off"
        isDisabled={isDisabled}
        errorMessage={nameError}
      />
    </div>
  );
}
