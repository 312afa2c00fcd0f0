/** 训练好的注意力头（`input=trained`、头选择器）的中文文本；与 trained-en.ts 结构相同。 */
import { fmt, fmtInt } from '../charts/format';
import type { TokenizeProblem } from '../core/train/tasks/text-words';
import type { TrainedStrings, TrainedSummary } from './trained-en';

const range = (lo: number, hi: number) => (fmt(lo, 2) === fmt(hi, 2) ? fmt(lo, 2) : `${fmt(lo, 2)}–${fmt(hi, 2)}`);

const wordList = (xs: string[]) => (xs.length > 6 ? `${xs.slice(0, 6).join('、')} 等 ${xs.length} 个` : xs.join('、'));

function textProblemsZh(problems: readonly TokenizeProblem[]): string {
  const unknown = problems.flatMap((p) =>
    p.kind === 'unknown'
      ? [`“${p.word}”（第 ${p.index} 个词元${p.suggestion ? `；是否想输入“${p.suggestion}”？` : ''}）`]
      : [],
  );
  const out: string[] = [];
  if (unknown.length) out.push(`模型不认识的词：${wordList(unknown)}`);
  for (const p of problems) {
    if (p.kind === 'too-many') out.push(`共 ${fmtInt(p.count)} 个词元，超过模型的 ${fmtInt(p.max)} 个`);
    if (p.kind === 'too-few') out.push(`只有 ${fmtInt(p.count)} 个词元，至少需要 ${p.min} 个`);
    if (p.kind === 'too-long') out.push(`共 ${fmtInt(p.chars)} 个字符，最多 ${fmtInt(p.max)} 个`);
  }
  return out.join('；');
}

export const trainedZh: TrainedStrings = {
  inputOption: '训练好的头（内置模型）',
  heading: '训练好的注意力头',
  model: '模型',
  example: '序列',
  exampleName: (i: number) => `示例 ${i + 1}`,
  typedOption: '你输入的文本',
  textLabel: '你的文本（语法模型的英文词）',
  textApply: '载入',
  textCount: (count: number, max: number, ignored: number, ready: boolean) =>
    `${fmtInt(count)} 个词元（最多 ${fmtInt(max)} 个）${ignored ? `，已去掉 ${fmtInt(ignored)} 个标点（语法中没有）` : ''}${ready ? ' · 按 Enter 或“载入”即在其上计算所有头。' : ''}`,
  textRejected: (source: 'url' | 'control', problems: readonly TokenizeProblem[]) =>
    `${source === 'url' ? '链接中的文本未载入' : '未载入'}——${textProblemsZh(problems)}。${source === 'url' ? '改为显示示例。' : '正在使用的头保持不变。'}`,
  vocabulary: '语法模型认识的词',
  wordGroups: {
    determiners: '限定词',
    adjectives: '形容词',
    nouns: '名词（单数/复数）',
    verbs: '动词（单数/复数，与主语一致）',
    marks: '标点与括号',
  },
  tokensHeading: (n: number) =>
    `序列：${fmtInt(n)} 个词元，对应热图的每个查询行 i（及键列 j）——点击词元可固定它所在的行`,
  tokenAria: (i: number, label: string) => `词元 ${i}：${label}`,
  mqarNote:
    'MQAR 不读取文本：它的序列是生成的任务数据——键 k 后跟它的值 v，然后是空白 · 与查询 k?（再次出现的键，模型须答出它的值）。',
  modelName: (id: string, layers: number, heads: number) =>
    `${id === 'mqar' ? 'MQAR 关联回忆' : '语法语言模型'}（${layers} 层 × ${heads} 头）`,
  intro: (params: string, loss: string, acc: string) =>
    `由本页自己的训练器训练的小模型（npm run train:bundled；${params} 个参数，留出集损失 ${loss}，准确率 ${acc}）中某一个头的 Q、K、V，在其任务的一条序列上由模型的前向计算得到。所有面板都在所选的头上计算。点击一个头即可选用。`,
  headTitle: (layer: number, head: number) => `第 ${layer + 1} 层，第 ${head + 1} 头`,
  headLine: (entropy: string, rank: string, errors: string, ms: string) =>
    `熵 ${entropy} nats · 有效秩 ${rank} · FAVOR+ 误差 ${errors}（m ${ms}）`,
  pick: (layer: number, head: number) => `选用第 ${layer + 1} 层第 ${head + 1} 头`,
  selected: '使用中',
  forwardPass: (backend: 'webgpu' | 'cpu', adapter: string, ms: string) =>
    `前向计算：${backend === 'webgpu' ? `WebGPU（WGSL${adapter ? `，${adapter}` : ''}）` : 'CPU（TypeScript 对照实现）'}，${ms} 毫秒，在引擎 worker 中。`,
  computing: '正在这条序列上运行模型的前向计算……',
  cancelPending: '保留当前的头',
  failed: (what: string, detail: string) => `训练模型的前向计算失败：${what}（${detail}）继续使用当前的头。`,
  summary: (s: TrainedSummary) => {
    const cmp = (r: [number, number], g: number, below: string, above: string, mixed: string) =>
      r[1] < g ? below : r[0] > g ? above : mixed;
    const rows = cmp(s.entropy, s.gauss.entropy, '更尖锐', '更平坦', '有的更尖锐、有的更平坦');
    const rank = cmp(s.rank, s.gauss.rank, '更低', '更高', '有高有低');
    const favor = cmp(s.favor, s.gauss.favor, '更低', '更高', '有高有低');
    return `在这条序列上实测：${fmtInt(s.heads)} 个头的平均行熵为 ${range(...s.entropy)} nats（均匀行 ${fmt(s.entropyUniform, 2)}；与所选头 n、d、RMS 相同的高斯 Q、K 为 ${fmt(s.gauss.entropy, 2)}），有效秩 ${range(...s.rank)}（高斯 ${fmt(s.gauss.rank, 2)}），m = ${s.m} 时 FAVOR+ 误差 ${range(...s.favor)}（高斯 ${fmt(s.gauss.favor, 2)}）。合成输入看不到的是：在元素大小相同的情况下，训练好的头的行比高斯输入${rows}，秩${rank}——查询按内容挑选键（MQAR：匹配的那个键；语法模型：预测所依赖的词）；FAVOR+ 的误差比高斯输入${favor}，它由学到的查询与键的几何结构决定，而不是由元素大小决定。`;
  },
  rules: {
    model: '必须是 mqar、grammar 之一',
    layer: '必须是模型的层号（从 0 开始）',
    head: '必须是模型的头号（从 0 开始）',
    example: '必须是 0 到 15 的示例编号',
    text: '应省略：只有语法模型能读取输入的文本（MQAR 的序列是生成的任务数据）',
  },
};
