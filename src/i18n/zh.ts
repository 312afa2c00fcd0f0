/**
 * Every user-visible Simplified Chinese string, same shape as en.ts. Math, units and proper names
 * stay as they are.
 */
import { en, type Strings } from './en';
import { fmtInt } from '../charts/format';

export const zh: Strings = {
  ...en,
  stab: {
    label: 'eˣ 特征的稳定化方式',
    names: { shift: '减最大值（精确估计量）', ref: '减最大值 + ε = 10⁻⁶（参考实现）' },
    help: '减去最大值在 Â 的行归一化中会完全抵消；像参考实现那样再加上 ε = 10⁻⁶ 则不会：范数较大时它会淹没极小的真实特征，使 Â 变平。',
    zeroRows: (k: number, n: number) =>
      `${fmtInt(k)} / ${fmtInt(n)} 个查询行的归一化因子全为零：所有乘积 φ(q_i)·φ(k_j) 都在 float32 中下溢（范数极大且没有 ε）。这些行的 Â 和输出显示为 0，而不是一个概率分布。请减小 s 或 d，或选择稳定化方式“减最大值 + ε”。`,
    figureTitle: 'Performer 的 Â 的熵随范数尺度的变化：有无 ε',
    flattenNote:
      '参考实现在减去最大值之后给每个正特征加上 ε = 10⁻⁶；范数较大时，真实的键特征（s = 2、d = 16 时约为 e⁻²⁴）远小于 ε，于是 ε 压倒了所有特征，Â 趋向平均池化（虚线），而估计量本身（实线）随 softmax 一起继续集中。',
    seriesShift: '正特征 Â，仅减最大值（估计量）',
    seriesRef: '正特征 Â，+ ε = 10⁻⁶（参考实现）',
    errorRef: '正特征，+ ε = 10⁻⁶（参考实现）',
    errorShift: '正特征，仅减最大值（估计量）',
    table: '不同稳定化方式下 Â 的熵随范数尺度的变化',
  },
};
