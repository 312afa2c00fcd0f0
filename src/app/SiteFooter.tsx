/**
 * The page footer: the sources the explainer follows, each with a real link, in the current
 * language (authors' names and English titles are marked translate="no" / lang="en"), and the
 * privacy line.
 */
import { Fragment } from 'react';
import type { Strings } from '../ui/strings';
import { useStrings } from '../ui/strings';

type SourceId = keyof Strings['cite']['items'];

/** Bibliographic facts that no translation changes: titles stay in their original language. */
const SOURCES: { id: SourceId; href: string; title?: string; link?: string }[] = [
  { id: 'su', href: 'https://kexue.fm/archives/8338', link: 'kexue.fm/archives/8338' },
  {
    id: 'blog',
    href: 'https://research.google/blog/rethinking-attention-with-performers/',
    title: 'Rethinking Attention with Performers',
  },
  {
    id: 'paper',
    href: 'https://arxiv.org/abs/2009.14794',
    title: 'Rethinking Attention with Performers',
    link: 'arXiv:2009.14794',
  },
  {
    id: 'katharopoulos',
    href: 'https://arxiv.org/abs/2006.16236',
    title: 'Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention',
    link: 'arXiv:2006.16236',
  },
  {
    id: 'shen',
    href: 'https://arxiv.org/abs/1812.01243',
    title: 'Efficient Attention: Attention with Linear Complexities',
    link: 'arXiv:1812.01243',
  },
  {
    id: 'oprf',
    href: 'https://arxiv.org/abs/2205.15317',
    title: 'Chefs’ Random Tables: Non-Trigonometric Random Features',
    link: 'arXiv:2205.15317',
  },
  {
    id: 'simplex',
    href: 'https://arxiv.org/abs/2301.13856',
    title: 'Simplex Random Features',
    link: 'arXiv:2301.13856',
  },
  {
    id: 'based',
    href: 'https://arxiv.org/abs/2402.18668',
    title: 'Simple linear attention language models balance the recall-throughput tradeoff',
    link: 'arXiv:2402.18668',
  },
  {
    id: 'cosformer',
    href: 'https://arxiv.org/abs/2202.08791',
    title: 'cosFormer: Rethinking Softmax in Attention',
    link: 'arXiv:2202.08791',
  },
];

export function SiteFooter() {
  const t = useStrings();
  const c = t.cite;
  return (
    <footer className="app-footer note">
      <h2 className="footer-title">{c.heading}</h2>
      <p>{c.intro}</p>
      <ol className="citations">
        {SOURCES.map((s) => {
          const item = c.items[s.id];
          const title = s.title && (
            <cite lang="en" translate="no">
              “{s.title}”
            </cite>
          );
          return (
            <li key={s.id} data-cite={s.id}>
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
