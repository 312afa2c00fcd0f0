/**
 * Every user-visible Simplified Chinese string, same shape as en.ts. Math, units and proper names
 * stay as they are.
 */
import { en, type Strings } from './en';

export const zh: Strings = {
  ...en,
  export: {
    png: 'PNG',
    svg: 'SVG',
    csv: 'CSV',
    toolbar: (title: string) => `下载「${title}」`,
    pngAria: (title: string) => `下载「${title}」的 PNG 图片`,
    svgAria: (title: string) => `下载「${title}」的 SVG 矢量图`,
    csvAria: (title: string) => `下载「${title}」的数据（CSV）`,
    failed: (message: string) => `导出失败：${message}`,
    json: '下载当前状态（JSON）',
    jsonBusy: '正在生成 JSON…',
    jsonHint: '参数、Q、K、V、W、精确的 A、Â、两种输出以及上方的各项指标，合为一个 JSON 文件。',
    jsonWaiting: '第一个结果显示后即可下载。',
    jsonLimit: (limit: string, n: string) => `JSON 包含稠密的 n×n 矩阵，因此仅在 n ≤ ${limit} 时提供（当前 n 为 ${n}）；请减小 n 后再导出。`,
  },
};
