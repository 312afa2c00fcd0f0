/** One message of the page: its text and a dismiss button (the notice list, and a notice shown where it arose). */
import { useActions } from '../store/react';
import type { Notice } from '../store/store';
import { useStrings } from './strings';

export function NoticeLine({ notice, text }: { notice: Notice; text: string }) {
  const t = useStrings();
  const actions = useActions();
  return (
    <div className={`notice notice-${notice.level}`} data-notice={notice.code}>
      <span>{text}</span>
      <button
        type="button"
        className="small"
        aria-label={t.app.dismiss}
        onClick={() => actions.dismissNotice(notice.id)}
      >
        ×
      </button>
    </div>
  );
}
