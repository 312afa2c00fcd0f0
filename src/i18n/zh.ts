/**
 * Every user-visible Simplified Chinese string, same shape as en.ts. Math, units and proper names
 * stay as they are.
 */
import { en, type Strings } from './en';
import { fmtInt } from '../charts/format';
import type { UploadProblem } from '../core/upload-check';

const mibZh = (bytes: number) => `${(bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 1)} MiB`;
const LOCKED_NAMES_ZH: Record<string, string> = { n: '序列长度 n', d: '头维度 d', scale: '范数尺度 s', input: '输入类型' };

export const zh: Strings = {
  ...en,
  upload: {
    heading: '使用你自己的 Q 和 K',
    intro: '载入 Q 和 K（V 可选）：.npy（float32 或 float64，C 顺序，形状 [n, d]）或 CSV。之后所有面板都在这些数据上计算；数据不会离开你的浏览器。',
    drop: '把 .npy 或 CSV 文件拖到这里（文件名为 q、k、v——或逐个拖到对应的槽位）',
    dropActive: '松开即可载入',
    slotNames: { q: 'Q', k: 'K', v: 'V（可选）' },
    choose: (slot: string) => `选择 ${slot}…`,
    chooseAria: (slot: string) => `为 ${slot} 选择 .npy 或 CSV 文件`,
    empty: '无文件',
    vDefault: '由输入种子生成的高斯矩阵',
    fileInfo: (name: string, rows: number, cols: number, kind: string) => `${name} · ${fmtInt(rows)} × ${fmtInt(cols)} · ${kind}`,
    kinds: { float32: '.npy float32', float64: '.npy float64（舍入为 float32）', text: '文本' },
    notes: { bom: '已忽略字节顺序标记（BOM）', 'header-row': '已跳过表头行', comments: '已跳过 # 注释行', float64: 'float64 已舍入为 float32' },
    waiting: (slots: string) => `还缺 ${slots}：在它载入之前，各面板继续使用当前的输入。`,
    active: (n: number, d: number, rms: string) => `正在使用你的 Q、K：n = ${fmtInt(n)}，d = ${fmtInt(d)}（元素的均方根 ${rms}）。`,
    remove: '移除上传的数据',
    rejected: (file: string, why: string) => `未载入：${file}——${why}。页面上的一切保持不变。`,
    dismiss: '关闭',
    tooMany: '最多拖入三个文件（Q、K 和 V）。',
    lockedHelp: '由上传的文件决定（移除文件后才能修改）',
    scaleLocked: (rms: string) => `上传的 Q、K 按原样使用；其元素的均方根为 ${rms}`,
    notInLink: '这个链接是在上传 Q 和 K 之后生成的，而上传的数据从不包含在链接中。现在显示的是生成的输入——请重新载入文件以查看它们。',
    locked: (key: string) => `${LOCKED_NAMES_ZH[key] ?? key} 由上传的文件决定；移除上传的数据后才能修改。`,
    problem: (p: UploadProblem): string => {
      switch (p.code) {
        case 'empty':
          return '文件是空的（其中没有数字）';
        case 'file-too-large':
          return `文件大小为 ${mibZh(p.bytes)}，超过了允许的 ${mibZh(p.max)}`;
        case 'bad-magic':
          return `这不是 .npy 文件：开头应为“\\x93NUMPY”，实际是“${p.found}”${p.found.startsWith('PK') ? '（是 .npz 压缩包吗？请用 np.save 每个文件保存一个数组）' : ''}`;
        case 'truncated-header':
          return `.npy 文件头不完整：文件只有 ${fmtInt(p.bytes)} 字节，文件头需要 ${fmtInt(p.needed)} 字节（下载被截断？）`;
        case 'bad-header':
          return `无法读取 .npy 文件头：${p.detail}`;
        case 'unsupported-version':
          return `不支持 .npy 格式版本 ${p.version}（支持 1.0、2.0 和 3.0）`;
        case 'unsupported-dtype':
          return `不支持数据类型 ${p.dtype}：请使用 float32 或 float64（例如 np.save(f, x.astype(np.float32))）`;
        case 'big-endian':
          return `数据是大端字节序（${p.dtype}）：请以小端保存，例如 x.astype('<f4')`;
        case 'fortran-order':
          return '数组是 Fortran（列优先）顺序：请改为保存 np.ascontiguousarray(x)';
        case 'unaligned':
          return `数据从第 ${fmtInt(p.offset)} 字节开始，未按元素大小对齐（文件头没有像 np.save 那样填充）`;
        case 'not-2d':
          return `数组形状为 (${p.shape.join(', ')})，但 Q、K、V 必须是二维的：[n, d]`;
        case 'zero-size':
          return `数组形状为 (${p.shape.join(', ')})：n 和 d 至少为 1`;
        case 'data-size-mismatch':
          return `文件头给出的形状 (${p.shape.join(', ')}) 需要 ${fmtInt(p.expectedBytes)} 字节数据，但文件中有 ${fmtInt(p.actualBytes)} 字节（文件被截断，或形状有误）`;
        case 'too-many-rows':
          return `n = ${fmtInt(p.n)} 行，超过了允许的 ${fmtInt(p.max)} 行`;
        case 'too-many-cols':
          return `d = ${fmtInt(p.d)} 列，超过了允许的 ${fmtInt(p.max)} 列`;
        case 'too-many-elements':
          return `n × d = ${fmtInt(p.count)} 个元素，超过了允许的 ${fmtInt(p.max)} 个`;
        case 'non-finite':
          return `元素 [${p.row}, ${p.col}] 是 ${p.value}：每个元素都必须是有限的数`;
        case 'float32-overflow':
          return `元素 [${p.row}, ${p.col}] 超出了 float32 的范围（|x| > 3.4e38）`;
        case 'not-text':
          return '这既不是 .npy 文件，也不是 UTF-8 文本（CSV）';
        case 'csv-ragged':
          return `第 ${fmtInt(p.line)} 行有 ${p.got} 个值，但之前的行有 ${p.expected} 个`;
        case 'csv-non-numeric':
          return `第 ${fmtInt(p.line)} 行第 ${p.col} 列：“${p.cell}”不是数字${p.cell === '' ? '（空单元格）' : ''}`;
        case 'qk-shape-mismatch':
          return `Q 是 ${p.q[0]} × ${p.q[1]}，而 K 是 ${p.k[0]} × ${p.k[1]}：两者的 n 和 d 必须相同`;
        case 'v-shape-mismatch':
          return `V 是 ${p.v[0]} × ${p.v[1]}，但必须是 n × d = ${p.expected[0]} × ${p.expected[1]}`;
        case 'read-failed':
          return `无法读取文件（${p.detail}）`;
      }
    },
  },
};
