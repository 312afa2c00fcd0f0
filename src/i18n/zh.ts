/**
 * Every user-visible Simplified Chinese string, same shape as en.ts. Math, units and proper names
 * stay as they are.
 */
import { en, type Strings } from './en';

export const zh: Strings = {
  ...en,
  present: {
    deck: 'Performer 近观 —— 讲座',
    counter: (k: number, n: number) => `${k} / ${n}`,
    announce: (k: number, n: number, title: string) => `第 ${k} 张幻灯片，共 ${n} 张：${title}`,
    nav: '幻灯片',
    prev: '上一张',
    next: '下一张',
    exit: '退出讲座模式',
    exitShort: '退出',
    keysButton: '按键 (?)',
    keysTitle: '讲座模式的按键',
    keysClose: '关闭',
    keyCol: '按键',
    actionCol: '作用',
    keyActions: {
      next: '下一张',
      prev: '上一张',
      first: '第一张',
      last: '最后一张',
      help: '显示或隐藏本列表',
      exit: '退出讲座模式（回到页面）',
      enter: '进入讲座模式（在页面上）',
    },
    keysNote: '在输入框中打字时按键不起作用；焦点在滑块上时，方向键、Home 和 End 移动滑块。',
    enter: '演示',
    enterHint: '讲座模式：全屏幻灯片（按 P 键）',
    controls: '本页的控件',
    controlNames: { n: '序列长度 n', d: '头维度 d', m: '随机特征数 m', scale: '范数尺度 s', causal: '因果（解码器）掩码' },
    sourcesLabel: '依据',
    sources: {
      blog: 'Choromanski & Colwell，“Rethinking Attention with Performers”，Google AI Blog，2020 年 10 月',
      paper: 'Choromanski 等，ICLR 2021，arXiv:2009.14794',
      su: '苏剑林，科学空间，kexue.fm/archives/8338',
      katharopoulos: 'Katharopoulos 等，“Transformers are RNNs”，ICML 2020',
    },
    waiting: '计算中…',
    exactTitle: '精确注意力 A（softmax）',
    approxTitle: (map: string) => `Performer Â（${map}）`,
    colour: '注意力权重',
    statScores: (n: string, n2: string) => `n = ${n}：${n2} 个得分，每一个都要计算并存储`,
    statEntropy: (h: string) => `行熵均值 / log n = ${h}（1 = 均匀）`,
    statEntropies: (items: string) => `行熵均值 / log n：${items}`,
    statError: (e: string, m: number) => `误差 ‖Â − A‖ / ‖A‖ = ${e}，特征数 m = ${m}`,
    statCausal: (e: string) => `因果：两个矩阵都是下三角的；误差 ${e}`,
    costExact: '精确：4n²d',
    costPerformer: 'Performer：8nmd',
    costX: '序列长度 n',
    costY: '浮点运算数（模型）',
    costTable: '浮点运算模型随 n 的变化',
    costCrossover: (n: string) => `交叉点 n* ≈ 2m = ${n}`,
    costMeasured: (exact: string, perf: string, backend: string) => `当前 n 的实测（${backend}）：精确 ${exact}，Performer ${perf}`,
    orthSeries: (proj: string) => `FAVOR+，${proj}`,
    orthStat: (seeds: number, rows: number, n: number) => `${seeds} 次抽取 W 的平均（色带：最小–最大），${rows} 个查询行，n = ${n}`,
    theoryIid: '理论（引理 2，独立同分布）',
    curvesTitle: 'eˣ 及其一阶泰勒展开',
    rowTitle: (i: number) => `查询行 i = ${i}`,
    mapStat: (map: string, h: string) => `${map}：熵 ${h}`,
    spectraStat: (rA: string, rHat: string, tol: string) => `数值秩（τ = ${tol}）：A ${rA}，Â ${rHat}`,
    normStat: (m: number, seeds: number) => `m = ${m}，每个点抽取 ${seeds} 次 W（色带：其离散范围）；精确熵取自同样的行`,
    normErrorTitle: 'FAVOR+ 的误差随范数尺度 s 的变化',
    normEntropyTitle: 'softmax 的熵随范数尺度 s 的变化',
    steps: {
      quadratic: {
        title: '注意力要把每个查询与每个键比较',
        caption: 'n 个 token 产生 n² 个得分：序列长度翻倍，时间和内存变为四倍。拖动 n，看矩阵如何变大。',
      },
      kernel: {
        title: 'softmax 注意力是一个核函数',
        caption: '每个权重是 exp(q·k/√d) 再按行归一化：缩放后的查询与键之间的一个核。这里 q 和 k 编码了位置；增大范数尺度 s，每个查询都集中到它的邻居上。',
      },
      features: {
        title: '正值随机特征',
        caption: 'FAVOR+ 把这个核写成对随机方向 ω 的平均，只保留 m 个方向。每个特征都是正的，所以 Â 仍是合法的概率分布。特征越多，噪声越小。',
      },
      orthogonal: {
        title: '正交特征：代价相同，误差更小',
        caption: '让各个 ω 两两正交（长度仍服从高斯分布），估计保持无偏，并且对任意 d 都降低方差。实线：正交；虚线：独立同分布；点线：理论值。',
      },
      linear: {
        title: '结合律让它变成线性',
        caption: '先算 φ(K)ᵀV：一个汇总了所有键的 m×d 矩阵，供每个查询重复使用。代价随 n 而不是 n² 增长；n 超过约 2m 后，Performer 的运算量更少。',
      },
      causal: {
        title: '用前缀和实现因果注意力',
        caption: '解码器只能往回看。对已见过的键累加 φ(k_j)v_jᵀ 和 φ(k_j)，每个 token 只需一次更新就得到输出——仍然是线性的。',
      },
      maps: {
        title: 'eˣ 与 1 + elu',
        caption: '1 + elu(x) 是 eˣ 的一阶泰勒展开。它无法把较大的得分差距变成较大的权重，所以各行保持平坦；FAVOR+ 估计的是 eˣ 本身，能跟上尖峰状的行。',
      },
      sparsity: {
        title: 'softmax 能聚焦，1 + elu 则分散',
        caption: '一行注意力中最大的 k 个权重所占的份额。softmax 把大部分权重放在少数几个键上；1 + elu 把它摊薄，趋近于平均池化。',
      },
      rank: {
        title: '低秩：线性注意力至多为 m，softmax 可达 n',
        caption: 'QKᵀ 的秩不超过 d，φ(Q)φ(K)ᵀ 的秩不超过 m，但逐元素取指数可以把 softmax 注意力提升到满秩。奇异值显示了各个谱在哪里衰减。',
      },
      concentration: {
        title: '集中的代价',
        caption: '随着 s 增大，softmax 越来越集中（右：熵下降），而 FAVOR+ 的误差急剧增大（左）。在估计准确的地方，注意力几乎是均匀的。',
      },
    },
  },
};
