/**
 * The panels' figure wrapper: PNG / SVG / CSV download buttons (src/charts/ExportFigure.tsx) with
 * this language's labels and a file name that says what the figure is (`name`, an ASCII id that
 * does not change with the language) and the parameters it shows.
 */
import type { ReactNode } from 'react';
import { useStrings } from './strings';
import { ExportFigure } from '../charts/ExportFigure';
import type { AttentionParams } from '../core/types';
import { exportFileName } from '../export/filename';
import { useAppStore } from '../store/react';

export function Figure(props: {
  name: string;
  title: string;
  /** the parameters the figure shows (default: the current ones) */
  params?: AttentionParams;
  extras?: () => (Element | null)[];
  children: ReactNode;
}) {
  const labels = useStrings().export;
  // read when a file is saved, not subscribed: a parameter change does not re-render every figure
  const store = useAppStore();
  return (
    <ExportFigure
      title={props.title}
      labels={labels}
      fileName={(ext) => exportFileName(props.name, props.params ?? store.getState().params, ext)}
      extras={props.extras}
    >
      {props.children}
    </ExportFigure>
  );
}
