/**
 * The page footer: every work the explainer cites (src/i18n/references.ts), each with a real link, in the current
 * language (authors' names and English titles are marked translate="no" / lang="en"), and the
 * privacy line.
 */
import { Fragment } from 'react';
import { REFERENCE_IDS, REFERENCES } from '../i18n/references';
import { useStrings } from '../ui/strings';

export function SiteFooter() {
  const t = useStrings();
  const c = t.cite;
  return (
    <footer className="app-footer note">
      <h2 className="footer-title">{c.heading}</h2>
      <p>{c.intro}</p>
      <ol className="citations">
        {REFERENCE_IDS.map((id) => {
          const s = REFERENCES[id];
          const item = c.items[id];
          const title = s.title && (
            <cite lang="en" translate="no">
              “{s.title}”
            </cite>
          );
          return (
            <li key={id} data-cite={id}>
              <span translate="no">{item.who}</span>
              {c.sep}
              {title && (
                <Fragment>
                  {s.link ? title : <a href={s.href}>{title}</a>}
                  {c.sep}
                </Fragment>
              )}
              {item.where}
              {s.link && (
                <Fragment>
                  {c.sep}
                  <a href={s.href}>{s.link}</a>
                </Fragment>
              )}
              {c.aboutSep}
              {item.about}
              {c.end}
            </li>
          );
        })}
      </ol>
      <p>{t.app.footer}</p>
    </footer>
  );
}
