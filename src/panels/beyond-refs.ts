/**
 * The works behind each estimator of the "Beyond the Performer" panel. Bibliographic facts, kept in
 * their original language (titles and authors are not translated), keyed like core/estimators.ts.
 */
import type { CitationKey } from '../core/estimators';

export interface Reference {
  who: string;
  title: string | null;
  venue: string;
  href: string;
  link: string;
}

export const REFERENCES: Record<CitationKey, Reference> = {
  choromanski2021: {
    who: 'K. Choromanski et al.',
    title: 'Rethinking Attention with Performers',
    venue: 'ICLR 2021',
    href: 'https://arxiv.org/abs/2009.14794',
    link: 'arXiv:2009.14794',
  },
  su2021: {
    who: 'Su Jianlin (苏剑林)',
    title: null,
    venue: 'Scientific Spaces (科学空间), 2021',
    href: 'https://kexue.fm/archives/8338',
    link: 'kexue.fm/archives/8338',
  },
  katharopoulos2020: {
    who: 'A. Katharopoulos et al.',
    title: 'Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention',
    venue: 'ICML 2020',
    href: 'https://arxiv.org/abs/2006.16236',
    link: 'arXiv:2006.16236',
  },
  shen2021: {
    who: 'Z. Shen et al.',
    title: 'Efficient Attention: Attention with Linear Complexities',
    venue: 'WACV 2021',
    href: 'https://arxiv.org/abs/1812.01243',
    link: 'arXiv:1812.01243',
  },
  likhosherstov2022: {
    who: 'V. Likhosherstov et al.',
    title: 'Chefs’ Random Tables: Non-Trigonometric Random Features',
    venue: 'NeurIPS 2022',
    href: 'https://arxiv.org/abs/2205.15317',
    link: 'arXiv:2205.15317',
  },
  reid2023: {
    who: 'I. Reid et al.',
    title: 'Simplex Random Features',
    venue: 'ICML 2023',
    href: 'https://arxiv.org/abs/2301.13856',
    link: 'arXiv:2301.13856',
  },
  arora2024: {
    who: 'S. Arora et al.',
    title: 'Simple linear attention language models balance the recall-throughput tradeoff',
    venue: 'ICML 2024',
    href: 'https://arxiv.org/abs/2402.18668',
    link: 'arXiv:2402.18668',
  },
  qin2022: {
    who: 'Z. Qin et al.',
    title: 'cosFormer: Rethinking Softmax in Attention',
    venue: 'ICLR 2022',
    href: 'https://arxiv.org/abs/2202.08791',
    link: 'arXiv:2202.08791',
  },
  zhang2024: {
    who: 'M. Zhang et al.',
    title: 'The Hedgehog & the Porcupine: Expressive Linear Attentions with Softmax Mimicry',
    venue: 'ICLR 2024',
    href: 'https://arxiv.org/abs/2402.04347',
    link: 'arXiv:2402.04347',
  },
};
