/**
 * The space a figure will take, held while its first value computes. Without it a figure appears
 * below its status line from nothing and pushes everything under it down by its height (over a
 * load the page grew by 2,000 px, and the Hedgehog panel's Cancel moved 1,156 px under the pointer
 * during its fit): a reader mid-paragraph, a projected page, an iframe of fixed height lose their place.
 * The frame is empty and hidden from assistive technology: the status line above says what computes.
 */
import type { ReactNode } from 'react';
import type { AnalysisEntry } from '../store/store';

/** Whether a figure waits for its first value: requested (or about to be) and running; not after an error or a cancel. */
export function awaitsFirstValue(entry: Pick<AnalysisEntry, 'status'> | undefined, value: unknown): boolean {
  return value === null && (!entry || entry.status === 'running');
}

/**
 * A frame of the given height (data-pending-figure names what it stands for), empty and hidden from
 * assistive technology unless it carries a note (which then takes no space of its own).
 */
export function PendingFigure({ name, height, children }: { name: string; height: number; children?: ReactNode }) {
  return (
    <div
      className="figure-pending"
      style={{ height }}
      aria-hidden={children ? undefined : 'true'}
      data-pending-figure={name}
    >
      {children}
    </div>
  );
}

/**
 * What shows a value, or its held space while the value is first computed (`pending`, with an
 * optional `note` in the frame); nothing after an error or a cancel (the status line says why). The
 * shown block carries the height it was held at (data-held-height), so a test can compare the two.
 */
export function FigureSlot<T>(props: {
  name: string;
  value: T | null;
  pending: boolean;
  /** px, measured at the defaults with the shipped fonts */
  height: number;
  note?: ReactNode;
  children: (v: T) => ReactNode;
}) {
  if (props.value !== null)
    return (
      <div className="figure-body" data-figure-body={props.name} data-held-height={props.height}>
        {props.children(props.value)}
      </div>
    );
  return props.pending ? (
    <PendingFigure name={props.name} height={props.height}>
      {props.note}
    </PendingFigure>
  ) : null;
}

/** FigureSlot of an analysis (a `useAnalysisRequest` handle): held while its first value computes. */
export function AnalysisSlot<T>(props: {
  name: string;
  analysis: { entry: Pick<AnalysisEntry, 'status'> | undefined; value: T | null };
  height: number;
  children: (v: T) => ReactNode;
}) {
  const { entry, value } = props.analysis;
  return (
    <FigureSlot name={props.name} value={value} pending={awaitsFirstValue(entry, value)} height={props.height}>
      {props.children}
    </FigureSlot>
  );
}
