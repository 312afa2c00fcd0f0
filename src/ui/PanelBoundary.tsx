/** The error boundary around a panel or a slide's figure: a render error shows a message there only. */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useStrings } from './strings';

interface BoundaryState {
  error: Error | null;
}

/** A render error in one panel shows a message in that panel only; the rest of the page keeps working. */
export class PanelBoundary extends Component<{ name: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };
  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }
  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`panel "${this.props.name}" failed`, error, info.componentStack);
  }
  override render() {
    if (this.state.error)
      return (
        <BoundaryMessage
          name={this.props.name}
          error={this.state.error}
          onRetry={() => this.setState({ error: null })}
        />
      );
    return this.props.children;
  }
}

function BoundaryMessage({ name, error, onRetry }: { name: string; error: Error; onRetry: () => void }) {
  const t = useStrings().errors;
  return (
    <div className="panel-error" role="alert" data-panel-error="">
      <p>{t.panelCrashed(name)}</p>
      <pre>{error.message}</pre>
      <button type="button" onClick={onRetry}>
        {t.retry}
      </button>
    </div>
  );
}
