/**
 * A number written by `fmtText` (8.8×10⁶) with its exponent as a raised run of the UI face's own
 * digits: the bundled Inter subset has no superscript digits, and in a headline number's size and
 * weight the system font's glyphs stand out. Text without superscripts passes through.
 */
const SUP = '⁻⁰¹²³⁴⁵⁶⁷⁸⁹';
const PLAIN = '−0123456789';
const RUN = new RegExp(`([${SUP}]+)`);

export function SciText({ text }: { text: string }) {
  const parts = text.split(RUN);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        i % 2 ? (
          <sup key={i} className="sci-exp">
            {[...p].map((c) => PLAIN[SUP.indexOf(c)]).join('')}
          </sup>
        ) : (
          p
        ),
      )}
    </>
  );
}
