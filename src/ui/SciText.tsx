/**
 * A number written by `fmtText` (8.8×10⁶) with its exponent as a raised run of the UI face's own
 * digits: the bundled Inter subset has no superscript digits, and in a headline number's size and
 * weight the system font's glyphs stand out. Text without superscripts passes through.
 */
import { PLAIN_CHARS, SUPERSCRIPT_CHARS } from '../charts/format';

const RUN = new RegExp(`([${SUPERSCRIPT_CHARS}]+)`);

export function SciText({ text }: { text: string }) {
  const parts = text.split(RUN);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        i % 2 ? (
          <sup key={i} className="sci-exp">
            {[...p].map((c) => PLAIN_CHARS[SUPERSCRIPT_CHARS.indexOf(c)]).join('')}
          </sup>
        ) : (
          p
        ),
      )}
    </>
  );
}
