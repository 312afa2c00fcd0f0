import type { Lang } from '../store/store';
import { en, type Strings } from './en';
import { zh } from './zh';

export type { Strings };
export const STRINGS: Record<Lang, Strings> = { en, zh };
