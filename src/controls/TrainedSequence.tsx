/**
 * The sequence of `input=trained` beside the head picker: for every model a line of its tokens (the
 * grammar's words, MQAR's keys, values, blanks and queries), one chip per position i — the query
 * row i and key column j of every heatmap — hovering one previews its row, clicking pins it; for the
 * grammar model a text box (prefilled with the current sequence's words; Enter or Load) that puts
 * the head in force on typed text (`text=` in the URL). Text that does not tokenize is refused at
 * the box (the store's `trained-text-rejected` notice, naming each unknown word); the head stays.
 */
import { useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { fmtInt } from '../charts/format';
import { WORD_GROUPS } from '../core/train/tasks/text-words';
import { bundleShape } from '../core/trained/bundles';
import type { TrainedSelection } from '../core/trained/configs';
import { hasTokenizer, selectionText, selectionTokens, tokenizeFor, tokenLabels } from '../core/trained/sequence';
import { useActions, useStore } from '../store/react';
import type { Notice } from '../store/store';
import { NoticeLine } from '../ui/NoticeLine';
import { useStrings } from '../ui/strings';

type TextNotice = Extract<Notice, { code: 'trained-text-rejected' }>;

/** The latest refusal of typed text still standing (dismissed or answered by a loaded head: none). */
function useTextNotice(): TextNotice | null {
  return useStore((s) => {
    for (let i = s.notices.length - 1; i >= 0; i--) {
      const n = s.notices[i]!;
      if (n.code === 'trained-text-rejected') return n;
    }
    return null;
  });
}

export function TrainedSequence({ sel, onText }: { sel: TrainedSelection; onText: (text: string) => void }) {
  const notice = useTextNotice();
  // the box starts from the sequence in force — or from a link's refused text, to be fixed
  const initial = (notice?.source === 'url' ? notice.text : null) ?? selectionText(sel);
  return (
    <div className="trained-sequence">
      {initial !== null && hasTokenizer(sel.model) ? (
        <TextBox
          key={`${sel.model}|${sel.text ?? sel.example}`}
          sel={sel}
          initial={initial}
          notice={notice}
          onText={onText}
        />
      ) : (
        <MqarNote />
      )}
      <TokenChips sel={sel} />
    </div>
  );
}

function MqarNote() {
  return (
    <p className="note" data-trained-no-text="">
      {useStrings().trained.mqarNote}
    </p>
  );
}

function TextBox({
  sel,
  initial,
  notice,
  onText,
}: {
  sel: TrainedSelection;
  initial: string;
  notice: TextNotice | null;
  onText: (text: string) => void;
}) {
  const tt = useStrings().trained;
  const [draft, setDraft] = useState(initial);
  const id = useId();
  const max = bundleShape(sel.model).n;
  const live = useMemo(() => tokenizeFor(sel.model, draft), [sel.model, draft]);
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    onText(draft);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) submit(e);
  };
  return (
    <form className="trained-text" onSubmit={submit} data-trained-text-form="">
      <label htmlFor={`${id}-text`}>{tt.textLabel}</label>
      <div className="trained-text-row">
        <textarea
          id={`${id}-text`}
          rows={2}
          value={draft}
          spellCheck={false}
          autoCapitalize="none"
          data-trained-key="text"
          aria-invalid={notice ? true : undefined}
          aria-describedby={`${id}-hint${notice ? ` ${id}-error` : ''}`}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKey}
        />
        <button type="submit" data-action="load-text">
          {tt.textApply}
        </button>
      </div>
      {notice && (
        <div id={`${id}-error`} className="trained-text-error" role="alert" data-trained-text-error="">
          <NoticeLine notice={notice} text={tt.textRejected(notice.source, notice.problems)} />
        </div>
      )}
      <p id={`${id}-hint`} className="note" data-trained-text-count={live?.count ?? ''}>
        {live ? tt.textCount(live.count, max, live.ignored, live.ok) : ''}
      </p>
      <details className="trained-vocabulary">
        <summary>{tt.vocabulary}</summary>
        <dl>
          {Object.entries(WORD_GROUPS).map(([group, words]) => (
            <div key={group}>
              <dt>{tt.wordGroups[group]}</dt>
              <dd>{words.join(' · ')}</dd>
            </div>
          ))}
        </dl>
      </details>
    </form>
  );
}

/** Where an arrow key moves the focus in a line of `count` chips (null: not a key the list takes). */
export function chipStep(key: string, at: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return Math.min(count - 1, at + 1);
    case 'ArrowLeft':
    case 'ArrowUp':
      return Math.max(0, at - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * One chip per position. The line is one tab stop (64 chips were 64 of them): Tab lands on the
 * chip last pinned or focused (at first the first), the arrows, Home and End move along it.
 */
function TokenChips({ sel }: { sel: TrainedSelection }) {
  const tt = useStrings().trained;
  const actions = useActions();
  const pinned = useStore((s) => s.ui.pinnedRow);
  const hovered = useStore((s) => s.ui.hoveredRow);
  const labels = useMemo(() => tokenLabels(sel.model, selectionTokens(sel)), [sel]);
  const [focused, setFocused] = useState(pinned ?? 0);
  // a row pinned anywhere (a chip, a heatmap click) becomes the line's tab stop
  const [seenPin, setSeenPin] = useState(pinned);
  if (pinned !== seenPin) {
    setSeenPin(pinned);
    if (pinned !== null) setFocused(pinned);
  }
  const list = useRef<HTMLOListElement>(null);
  const stop = Math.max(0, Math.min(focused, labels.length - 1));
  const onKey = (e: KeyboardEvent<HTMLOListElement>) => {
    const at = Number((e.target as HTMLElement).dataset.tokenPos ?? stop);
    const next = chipStep(e.key, at, labels.length);
    if (next === null) return;
    e.preventDefault();
    setFocused(next);
    list.current?.querySelector<HTMLButtonElement>(`[data-token-pos="${next}"]`)?.focus();
  };
  return (
    <div className="trained-tokens">
      <p className="note">{tt.tokensHeading(labels.length)}</p>
      <ol
        ref={list}
        className="token-chips"
        data-trained-tokens={labels.map((l) => l.label).join(' ')}
        aria-label={tt.tokensHeading(labels.length)}
        onKeyDown={onKey}
      >
        {labels.map((l, i) => (
          <li key={i}>
            <button
              type="button"
              className={`token-chip token-${l.role}${hovered === i ? ' hovered' : ''}`}
              tabIndex={i === stop ? 0 : -1}
              aria-pressed={pinned === i}
              aria-label={tt.tokenAria(i, l.label)}
              data-token-pos={i}
              onClick={() => actions.pinRow(pinned === i ? null : i)}
              onMouseEnter={() => actions.hoverRow(i)}
              onMouseLeave={() => actions.hoverRow(null)}
              onFocus={() => {
                setFocused(i);
                actions.hoverRow(i);
              }}
              onBlur={() => actions.hoverRow(null)}
            >
              <span className="token-pos" aria-hidden="true">
                {fmtInt(i)}
              </span>
              {l.label}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
