/**
 * The panels' figure wrapper: PNG / SVG / CSV download buttons (src/charts/ExportFigure.tsx) with
 * this language's labels and a file name that says what the figure is (`name`, an ASCII id that
 * does not change with the language) and the parameters it shows; the image states them too, in a
 * caption under its title (a figure pasted into slides or a post keeps what it was computed at).
 */
import type { ReactNode } from 'react';
import { useStrings } from './strings';
import { ExportFigure } from '../charts/ExportFigure';
import type { AttentionParams } from '../core/types';
import { exportFileName } from '../export/filename';
import { useAppStore } from '../store/react';
import type { EmbedFigureId } from '../store/embed';
import { EmbedButton } from './EmbedDialog';

export function Figure(props: {
  name: string;
  title: string;
  /** the parameters the figure shows (default: the current ones) */
  params?: AttentionParams;
  extras?: () => (Element | null)[];
  /** the figure can be embedded alone (`figure=`): an Embed button beside its downloads opens the dialog on it */
  embed?: EmbedFigureId;
  children: ReactNode;
}) {
  const t = useStrings();
  // read when a file is saved, not subscribed: a parameter change does not re-render every figure
  const store = useAppStore();
  const params = () => props.params ?? store.getState().params;
  return (
    <ExportFigure
      title={props.title}
      labels={t.export}
      fileName={(ext) => exportFileName(props.name, params(), ext)}
      caption={() => {
        const p = params();
        return t.export.caption({ ...p, map: t.names.maps[p.featureMap] });
      }}
      extras={props.extras}
      actions={props.embed ? <EmbedButton figure={props.embed} /> : undefined}
    >
      {props.children}
    </ExportFigure>
  );
}
