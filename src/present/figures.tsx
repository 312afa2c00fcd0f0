/**
 * One live figure per slide, sized to the box the slide leaves for it. Every figure is drawn from
 * the engine: the compute result (src/present/compute-figures.tsx), an analysis run in the worker
 * (src/present/analysis-figures.tsx) or, on the speed slide, a speed run (src/present/speed-figure.tsx).
 */
import { CostFigure, MatrixFigure } from './compute-figures';
import { ErrorVsMFigure, MapsFigure, NormFigure, SparsityFigure, SpectraFigure } from './analysis-figures';
import { SpeedFigure } from './speed-figure';
import { TrainingFigure } from './training-figure';
import type { Box } from './figure-frame';
import type { Step } from './story';

export type { Box };

/** The figure of `step`, filling `box`. */
export function SlideFigure({ step, box }: { step: Step; box: Box }) {
  switch (step.figure) {
    case 'exact':
    case 'compare':
    case 'head':
      return <MatrixFigure step={step} box={box} />;
    case 'cost':
      return <CostFigure step={step} box={box} />;
    case 'error-vs-m':
      return <ErrorVsMFigure step={step} box={box} />;
    case 'maps':
      return <MapsFigure step={step} box={box} />;
    case 'sparsity':
      return <SparsityFigure step={step} box={box} />;
    case 'spectra':
      return <SpectraFigure step={step} box={box} />;
    case 'norm':
      return <NormFigure step={step} box={box} />;
    case 'speed':
      return <SpeedFigure step={step} box={box} />;
    case 'training':
      return <TrainingFigure step={step} box={box} />;
  }
}
