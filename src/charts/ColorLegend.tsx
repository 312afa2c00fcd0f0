import { useEffect, useRef } from 'react';
import { colorTicks } from './color-ticks';
import { fmt } from './format';
import { NEGATIVE_COLOR, type HeatScale } from './palette';

/** Words the legend writes itself (the scale's mode, for screen readers). */
export interface ColorLegendLabels {
  scaleModes: Record<HeatScale['mode'], string>;
}

/** Horizontal colour bar of a heat scale with labelled ticks (and the colour for negatives, if any). */
export function ColorLegend({
  scale,
  label,
  negativeLabel,
  width = 260,
  labels,
}: {
  scale: HeatScale;
  label: string;
  negativeLabel?: string;
  width?: number;
  labels: ColorLegendLabels;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = ref.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const img = ctx.createImageData(256, 1);
    for (let i = 0; i < 256; i++) {
      img.data[i * 4] = scale.lut[i * 3]!;
      img.data[i * 4 + 1] = scale.lut[i * 3 + 1]!;
      img.data[i * 4 + 2] = scale.lut[i * 3 + 2]!;
      img.data[i * 4 + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
  }, [scale]);
  const ticks = colorTicks(scale);
  return (
    <figure className="color-legend" style={{ width }}>
      <figcaption>{label}</figcaption>
      <canvas ref={ref} width={256} height={1} style={{ width, height: 12 }} aria-hidden="true" />
      <div className="color-ticks" aria-hidden="true">
        {ticks.map((t) => (
          <span key={t.text} className={`align-${t.align}`} style={{ left: `${t.pos * 100}%` }}>
            {t.text}
          </span>
        ))}
      </div>
      <span className="sr-only">
        {label}: {fmt(scale.lo)} – {fmt(scale.hi)} ({labels.scaleModes[scale.mode]})
      </span>
      {negativeLabel && (
        <div className="neg-key">
          <span className="swatch-dot" style={{ background: NEGATIVE_COLOR }} /> {negativeLabel}
        </div>
      )}
    </figure>
  );
}
