/**
 * Whether the main comparison's result, which some panels quote (the error panel's headline numbers),
 * is of other parameters than the current ones while no run is on its way to replace it: a long run
 * held for "Compute anyway", a cancelled run, a failed one. Then the quoted numbers must not pass for
 * the current parameters' — in an embed, or far down the page from the main comparison's status.
 * A run in flight is not such a case: the previous numbers stay, as every figure's do, until the
 * next result comes (and a note there would flash on every slider step).
 */
import { sameParams } from '../core/same-params';
import { useStore } from '../store/react';
import { paramsText, useStrings } from '../ui/strings';

/** `other`: the numbers are of other parameters (dim them); `none`: there are none; null: they are current. */
export function useResultOfOtherParams(): { kind: 'other' | 'none'; note: string } | null {
  const t = useStrings();
  const status = useStore((s) => s.compute.status);
  const result = useStore((s) => s.compute.result);
  const params = useStore((s) => s.params);
  if (status !== 'held' && status !== 'cancelled' && status !== 'error') return null;
  if (!result) return { kind: 'none', note: t.error.resultNone };
  if (sameParams(result.params, params)) return null;
  return { kind: 'other', note: t.error.resultOf(paramsText(t, result.params)) };
}
