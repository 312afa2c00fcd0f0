/**
 * The works the explainer cites — the page's footer, the slides' sources and the "Beyond the
 * Performer" panel all draw from this one list. Bibliographic facts, kept in their original
 * language (titles and authors are not translated); what each work is cited for, in each
 * language, is in `cite.items` of en.ts / zh.ts.
 */
import type { CitationKey } from '../core/estimators';

export interface Reference {
  /** authors, short form */
  who: string;
  title: string | null;
  venue: string;
  href: string;
  /** the link's text; null when the title itself is the link */
  link: string | null;
}

/** The footer's order (the sources the explainer follows first, then the later estimators). */
export const REFERENCE_IDS = [
  'su',
  'blog',
  'paper',
  'katharopoulos',
  'shen',
  'oprf',
  'simplex',
  'based',
  'cosformer',
  'hedgehog',
] as const;

export type ReferenceId = (typeof REFERENCE_IDS)[number];

export const REFERENCES: Record<ReferenceId, Reference> = {
  su: {
    who: 'Su Jianlin (苏剑林)',
    title: null,
    venue: 'Scientific Spaces (科学空间), 2021',
    href: 'https://kexue.fm/archives/8338',
    link: 'kexue.fm/archives/8338',
  },
  blog: {
    who: 'K. Choromanski and L. Colwell',
    title: 'Rethinking Attention with Performers',
    venue: 'Google AI Blog, October 2020',
    href: 'https://research.google/blog/rethinking-attention-with-performers/',
    link: null,
  },
  paper: {
    who: 'K. Choromanski et al.',
    title: 'Rethinking Attention with Performers',
    venue: 'ICLR 2021',
    href: 'https://arxiv.org/abs/2009.14794',
    link: 'arXiv:2009.14794',
  },
  katharopoulos: {
    who: 'A. Katharopoulos et al.',
    title: 'Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention',
    venue: 'ICML 2020',
    href: 'https://arxiv.org/abs/2006.16236',
    link: 'arXiv:2006.16236',
  },
  shen: {
    who: 'Z. Shen et al.',
    title: 'Efficient Attention: Attention with Linear Complexities',
    venue: 'WACV 2021',
    href: 'https://arxiv.org/abs/1812.01243',
    link: 'arXiv:1812.01243',
  },
  oprf: {
    who: 'V. Likhosherstov et al.',
    title: 'Chefs’ Random Tables: Non-Trigonometric Random Features',
    venue: 'NeurIPS 2022',
    href: 'https://arxiv.org/abs/2205.15317',
    link: 'arXiv:2205.15317',
  },
  simplex: {
    who: 'I. Reid et al.',
    title: 'Simplex Random Features',
    venue: 'ICML 2023',
    href: 'https://arxiv.org/abs/2301.13856',
    link: 'arXiv:2301.13856',
  },
  based: {
    who: 'S. Arora et al.',
    title: 'Simple linear attention language models balance the recall-throughput tradeoff',
    venue: 'ICML 2024',
    href: 'https://arxiv.org/abs/2402.18668',
    link: 'arXiv:2402.18668',
  },
  cosformer: {
    who: 'Z. Qin et al.',
    title: 'cosFormer: Rethinking Softmax in Attention',
    venue: 'ICLR 2022',
    href: 'https://arxiv.org/abs/2202.08791',
    link: 'arXiv:2202.08791',
  },
  hedgehog: {
    who: 'M. Zhang et al.',
    title: 'The Hedgehog & the Porcupine: Expressive Linear Attentions with Softmax Mimicry',
    venue: 'ICLR 2024',
    href: 'https://arxiv.org/abs/2402.04347',
    link: 'arXiv:2402.04347',
  },
};

/** The estimators' citation keys (src/core/estimators.ts) in this list. */
export const CITED: Record<CitationKey, ReferenceId> = {
  choromanski2021: 'paper',
  su2021: 'su',
  katharopoulos2020: 'katharopoulos',
  shen2021: 'shen',
  likhosherstov2022: 'oprf',
  reid2023: 'simplex',
  arora2024: 'based',
  qin2022: 'cosformer',
  zhang2024: 'hedgehog',
};
