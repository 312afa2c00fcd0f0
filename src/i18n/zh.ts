/**
 * Every user-visible Simplified Chinese string, same shape as en.ts (a plain object literal typed
 * `Strings`: TypeScript lists any key that is missing or has another type). Math, units and proper
 * names (Performer, FAVOR+, WebGPU, softmax, ReLU, elu) stay as they are; formulas translate only
 * their \text{…} words.
 */
import type { RejectReason } from '../store/params';
import { PARAM_RULES, type ParamKey } from '../store/params';
import type { FeatureMapKind, InputKind, ProjectionKind } from '../core/types';
import type { ZeroNormalizerCause } from '../core/feature-maps';
import { LANGS, PANEL_IDS, THEMES } from '../store/store';
import { PRESENT_STEP_COUNT, PRESENT_STEP_IDS } from '../store/present-steps';
import { RANK_TOLERANCES } from '../core/rank';
import { URL_KEYS } from '../store/url';
import { EMBED_CONTROL_IDS, EMBED_FIGURES } from '../store/embed';
import { fmt, fmtInt } from '../charts/format';
import { en, type ExportCaption, type HeadStatFacts, type Strings } from './en';
import type { UploadProblem } from '../core/upload-check';
import type { MapFamily } from '../core/estimators';
import { trainingZh } from './training-zh';
import { trainedZh } from './trained-zh';

const mibZh = (bytes: number) => `${(bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 1)} MiB`;
const LOCKED_NAMES_ZH: Record<string, string> = {
  n: '序列长度 n',
  d: '头维度 d',
  scale: '范数尺度 s',
  input: '输入类型',
};

const PARAM_NAMES: Record<ParamKey, string> = {
  n: 'n',
  d: 'd',
  m: 'm',
  seed: '输入种子',
  featureSeed: '特征种子',
  featureMap: '特征映射',
  projection: '投影',
  causal: '因果掩码',
  input: '输入',
  scale: '范数尺度',
  stabilizer: '稳定化方式',
};

const OTHER_RULES: Record<string, string> = {
  row: '必须是小于 n 的查询行号',
  lang: `必须是 ${LANGS.join('、')} 之一`,
  theme: `必须是 ${THEMES.join('、')} 之一`,
  tol: `必须是 ${RANK_TOLERANCES.map((x) => x.toExponential(0)).join('、')} 之一`,
  embed: `必须是 ${PANEL_IDS.join('、')} 之一`,
  hide: `必须是由 ${PANEL_IDS.join('、')} 组成的逗号分隔列表`,
  controls: `必须是 none，或由 ${EMBED_CONTROL_IDS.join('、')} 组成的逗号分隔列表`,
  embedId: '必须是 1–64 个字母、数字、- 或 _',
  figure: `必须与 embed= 同用，是该面板的图之一（${Object.entries(EMBED_FIGURES)
    .map(([panel, figures]) => `${panel}：${figures.join('、')}`)
    .join('；')}）；显示整个面板`,
  query: '查询字符串过长',
  step: `必须是 1 到 ${PRESENT_STEP_COUNT} 的幻灯片编号或幻灯片名（${PRESENT_STEP_IDS.join('、')}）；显示第 1 张`,
};

/** The allowed values of a parameter, as a noun phrase ("1 到 65,536 之间的整数"). */
function allowed(key: ParamKey): string {
  const r = PARAM_RULES[key];
  switch (r.kind) {
    case 'int':
      return `${fmtInt(r.min)} 到 ${fmtInt(r.max)} 之间的整数`;
    case 'real':
      return `${r.min} 到 ${r.max} 之间的数`;
    case 'enum':
      return `${r.options.join('、')} 之一`;
    case 'bool':
      return '1/0 或 true/false';
  }
}

function ruleText(key: string): string {
  const pk = (Object.keys(URL_KEYS) as ParamKey[]).find((k) => k === key || URL_KEYS[k] === key);
  if (key.startsWith('train.')) return trainingZh.rule(key.slice('train.'.length));
  if (key === 'train') return trainingZh.rule('train');
  if (key === 'run') return trainingZh.run;
  if (key in trainedZh.rules) return trainedZh.rules[key]!;
  if (!pk) return OTHER_RULES[key] ?? '不是可识别的设置';
  return `必须是${allowed(pk)}`;
}

const REASONS: Record<RejectReason, string> = {
  'not-a-number': '不是数字',
  'not-an-integer': '不是整数',
  'out-of-range': '超出范围',
  'not-an-option': '不是可选值之一',
  'not-a-boolean': '不是“是/否”值',
  'not-a-step': '不是幻灯片编号或名称',
  'too-long': '过长',
};

/**
 * Why the engine runs where it runs: the engine and GPU layers word it in English (they know no
 * languages); the known phrases are translated here, browser-supplied details are kept verbatim.
 */
const BACKEND_REASONS: [RegExp, (...m: string[]) => string][] = [
  [
    /^this browser exposes no WebGPU \(navigator\.gpu is missing\)$/,
    () => '此浏览器未提供 WebGPU（navigator.gpu 不存在）',
  ],
  [/^WebGPU is present but no GPU adapter is available$/, () => '浏览器支持 WebGPU，但没有可用的 GPU 适配器'],
  [
    /^the WebGPU adapter is a software rasterizer, which runs on the CPU and trains no faster than the CPU twins$/,
    () => 'WebGPU 适配器是软件光栅化器：它在 CPU 上运行，训练并不比 CPU 孪生实现快',
  ],
  [/^requestAdapter failed: (.*)$/s, (d) => `requestAdapter 失败：${d}`],
  [/^requestDevice failed: (.*)$/s, (d) => `requestDevice 失败：${d}`],
  [/^CPU path requested \(\?backend=cpu\)$/, () => '已按要求使用 CPU 路径（?backend=cpu）'],
  [/^WebGPU initialisation failed: (.*)$/s, (d) => `WebGPU 初始化失败：${d}`],
  [/^GPU device lost \((.*)\)$/s, (d) => `GPU 设备丢失（${d}）`],
];

/** Drops the space a template leaves between two Han characters ("截断后的 正值" → "截断后的正值"); Latin keeps its spaces. */
function tight(s: string): string {
  return s.replace(/([\u4e00-\u9fff]) (?=[\u4e00-\u9fff])/g, '$1');
}

function backendReason(why: string): string {
  return why
    .split('; ')
    .map((part) => {
      for (const [re, say] of BACKEND_REASONS) {
        const m = re.exec(part);
        if (m) return say(...m.slice(1));
      }
      return part;
    })
    .join('；');
}

const MAP_NAMES: Record<FeatureMapKind, string> = {
  positive: '正随机特征（FAVOR+）',
  hyperbolic: '双曲正随机特征',
  trig: '三角函数特征（sin, cos）',
  relu: 'ReLU（Performer-ReLU）',
  elu1: '1 + elu（线性 Transformer）',
  exp: 'eˣ，不含范数项（苏剑林，kexue.fm/archives/8338）',
  'double-softmax': '双重 softmax（高效注意力）',
  oprf: 'FAVOR++：最优正随机特征（Likhosherstov 等，2022）',
  taylor2: '二阶泰勒展开 1 + x + x²/2（Based，Arora 等，2024）',
  cosformer: 'cosFormer：ReLU 加余弦重加权（Qin 等，2022）',
  hedgehog: 'Hedgehog（可学习，在浏览器中拟合）',
};

const MAP_SHORT: Record<FeatureMapKind, string> = {
  positive: '正值',
  hyperbolic: '双曲',
  trig: '三角',
  relu: 'ReLU',
  elu1: '1+elu',
  exp: 'eˣ',
  'double-softmax': '双重 softmax',
  oprf: 'FAVOR++',
  taylor2: '二阶泰勒',
  cosformer: 'cosFormer（余弦）',
  hedgehog: 'Hedgehog（学习）',
};

/** 下拉框中的映射名称（完整名称及出处显示在下拉框下方）。 */
const MAP_CHOICES: Record<FeatureMapKind, string> = {
  positive: '正随机特征（FAVOR+）',
  hyperbolic: '双曲正随机特征',
  trig: '三角函数特征（sin, cos）',
  relu: 'ReLU（Performer-ReLU）',
  elu1: '1 + elu（线性 Transformer）',
  exp: 'eˣ，不含范数项',
  'double-softmax': '双重 softmax',
  oprf: 'FAVOR++（最优正特征）',
  taylor2: '二阶泰勒展开',
  cosformer: 'cosFormer（ReLU 加余弦）',
  hedgehog: 'Hedgehog（可学习）',
};

const PROJ_NAMES: Record<ProjectionKind, string> = {
  'orthogonal-chi': '正交，范数服从 χ 分布（论文默认）',
  'orthogonal-sqrtd': '正交，范数取 √d（正则化）',
  iid: '独立同分布高斯',
  simplex: '单纯形，范数服从 χ 分布（Reid 等，2023）',
};

const PROJ_CHOICES: Record<ProjectionKind, string> = {
  'orthogonal-chi': '正交（论文默认）',
  'orthogonal-sqrtd': '正交，范数 √d',
  iid: '独立同分布高斯',
  simplex: '单纯形（Reid 等，2023）',
};

const PROJ_SHORT: Record<ProjectionKind, string> = {
  'orthogonal-chi': '正交',
  'orthogonal-sqrtd': '正交 √d',
  iid: '独立同分布',
  simplex: '单纯形',
};

const INPUT_NAMES: Record<InputKind, string> = {
  gaussian: '高斯（稠密注意力）',
  clustered: '聚类（主题）',
  local: '局部（位置带状）',
};

/** LaTeX of φ for each map: the formulas of en.ts, with their \text{…} words in Chinese. */
const MAP_TEX: Record<FeatureMapKind, string> = {
  ...en.names.mapTex,
  elu1: String.raw`\phi(x)=\operatorname{elu}(x)+1\quad(\text{无投影，}d\text{ 个特征})`,
  exp: String.raw`\phi(x)=e^{Wx}\quad(\text{不含 }\|x\|^2\text{ 项})`,
  'double-softmax': String.raw`\phi_q(q)=\operatorname{softmax}_{\text{特征}}(q),\ \ \phi_k(k)=\operatorname{softmax}_{\text{位置}}(k)\ \ (\text{因果：}\phi_k(k)=e^{k})`,
  oprf: en.names.mapTex.oprf.replace(String.raw`\text{causal: }`, String.raw`\text{因果：}`),
  hedgehog: String.raw`\phi(x)=\big[\operatorname{softmax}(Wx)\,\|\,\operatorname{softmax}(-Wx)\big],\qquad W\in\mathbb{R}^{m\times d}\ \text{经拟合}`,
  taylor2: String.raw`\phi(x)=\big[1,\ x,\ \operatorname{vec}(xx^\top)/\sqrt2\big],\ \ \phi(x)^\top\phi(y)=1+x^\top y+\tfrac12(x^\top y)^2\quad(1+d+d^2\text{ 个特征})`,
};

/** 某种特征映射下 Â 的一行归一化因子为零的原因，以及避免的办法（stab.zeroRows）。 */
const ZERO_ROWS: Record<ZeroNormalizerCause, { why: string; fix: string }> = {
  relu: {
    why: 'cosFormer 的 ReLU 把没有正坐标的查询映射为 φ(q_i) = 0（d 较小时每个坐标有一半的概率 ≤ 0，所以这很常见）。',
    fix: '请增大 d，或选择其他特征映射。',
  },
  'underflow-eps': {
    why: '所有乘积 φ(q_i)·φ(k_j) 都在 float32 中下溢（范数极大且没有 ε）。',
    fix: '请减小 s 或 d，或选择稳定化方式“减最大值 + ε”。',
  },
  underflow: {
    why: '所有乘积 φ(q_i)·φ(k_j) 都在 float32 中下溢（范数极大）。',
    fix: '请减小 s 或 d。',
  },
};

export const zh: Strings = {
  app: {
    title: '细看 Performer',
    subtitle: '精确 softmax 注意力与 Performer（FAVOR+）线性注意力并排对照，在你的浏览器中实时计算。',
    backendPending: '正在启动计算引擎…',
    backendWebgpu: (adapter: string) => `WebGPU：${adapter}`,
    backendCpu: (reason: string) => `CPU 后备路径：${backendReason(reason)}`,
    backendLabel: '计算后端',
    computing: '计算中…',
    computedIn: (ms: string) => `已更新，用时 ${ms}`,
    theme: '主题',
    themes: { auto: '跟随系统', light: '浅色', dark: '深色' },
    notices: '消息',
    dismiss: '关闭',
    skip: '跳到对照图',
    footer: '所有计算都在你的浏览器本地完成，不会向任何地方发送数据。',
    language: '语言',
    documentTitle: '细看 Performer —— softmax 与 FAVOR+ 线性注意力',
    embedUnknown: '未知的面板。',
  },
  cite: {
    heading: '参考文献',
    intro: '本页的数学推导与实验依据以下文献：',
    sep: '，',
    aboutSep: '——',
    end: '。',
    items: {
      su: {
        who: '苏剑林',
        where: '科学空间（Scientific Spaces）',
        about: '关于 Performer 与线性注意力：eˣ 与 1 + elu、低秩问题、稀疏性、局部截断实验',
      },
      blog: {
        who: 'Krzysztof Choromanski、Lucy Colwell',
        where: 'Google AI 博客，2020 年 10 月',
        about: 'FAVOR+ 机制、正交正随机特征、因果注意力的前缀和',
      },
      paper: {
        who: 'Krzysztof Choromanski 等',
        where: 'ICLR 2021',
        about: '原论文；引理 2 给出正值特征与三角函数特征的误差',
      },
      katharopoulos: {
        who: 'Angelos Katharopoulos 等',
        where: 'ICML 2020',
        about: '以 1 + elu 为特征映射的线性注意力',
      },
      shen: {
        who: 'Zhuoran Shen 等',
        where: 'WACV 2021',
        about: '高效注意力，即双重 softmax',
      },
      oprf: {
        who: 'Valerii Likhosherstov 等',
        where: 'NeurIPS 2022 会议',
        about: 'FAVOR++：最优正随机特征，既为正又有界，A 取方差最小的值',
      },
      simplex: {
        who: 'Isaac Reid 等',
        where: 'ICML 2023',
        about: '单纯形随机特征：方向耦合为随机旋转的正单纯形',
      },
      based: {
        who: 'Simran Arora 等',
        where: 'ICML 2024',
        about: 'Based：二阶泰勒特征映射 1 + x + x²/2',
      },
      cosformer: {
        who: 'Zhen Qin 等',
        where: 'ICLR 2022',
        about: 'cosFormer：按 cos(π(i − j)/2M) 重加权的 ReLU 特征',
      },
      hedgehog: {
        who: 'Michael Zhang 等',
        where: 'ICLR 2024',
        about: 'Hedgehog：学习得到的特征映射 [softmax(Wx) | softmax(−Wx)]，拟合以模仿 softmax 注意力',
      },
    },
  },
  notices: {
    rejected: (source: 'url' | 'control', key: string, raw: string, reason: RejectReason) =>
      `${source === 'url' ? '已忽略 URL 参数' : '已忽略输入值'} ${key} = “${raw}”：${REASONS[reason]}——${ruleText(key)}。保留原来的值。`,
    clamped: (key: ParamKey, raw: string, to: number) =>
      `${PARAM_NAMES[key]} = ${raw} 超出允许范围（${allowed(key)}），改用 ${fmt(to)}。`,
    backendChanged: (why: string) => `计算后端已切换：${backendReason(why)}。`,
    langUnavailable: (name: string) => `无法加载界面语言「${name}」（可能已离线），页面仍保持原来的语言。`,
  },
  errors: {
    title: '上一次计算失败，屏幕上保留的是之前的结果。',
    codes: {
      'non-finite-result':
        '计算结果溢出为非有限值——这是三角函数特征在范数较大时的典型表现（exp(‖x‖²/2) 爆炸，行和可能为 0）。',
      'exceeds-limit': '规模过大：超出了本应用或此设备的上限。',
      'invalid-size': '尺寸无效。',
      'non-finite-input': '输入中含有 NaN 或无穷大。',
      'shape-mismatch': '矩阵形状不匹配。',
      'device-lost': 'GPU 设备丢失，引擎正在恢复。',
      'gpu-validation': 'GPU 拒绝了这项计算（验证错误或显存不足）。',
      cancelled: '已取消。',
      internal: '引擎发生意外故障。',
      'hedgehog-not-fitted': 'Hedgehog 特征映射还没有拟合好的 W（训练被取消或失败）：请在特征映射面板中点击“训练”。',
    } as Record<string, string>,
    retry: '重试',
    panelCrashed: (panel: string) => `“${panel}”面板在绘制时出错。页面的其余部分仍可正常使用。`,
    analysisFailed: '此项分析失败：',
    analysisNotComputed: '这组参数下无法计算：',
  },
  controls: {
    heading: '实验设置',
    n: '序列长度 n',
    nHelp: '对数刻度；可直接输入 1 到 65,536 之间的任意 n',
    d: '头维度 d',
    m: '随机特征数 m',
    mHelp: (mp: string) => `特征维度 m′ = ${mp}`,
    typed: (what: string) => `${what}（输入数值）`,
    typedRange: (what: string, min: number, max: number) => `${what}（${min}–${max}，输入数值）`,
    featureMap: '特征映射 φ',
    projection: '投影 W',
    causal: '因果（解码器）掩码',
    seed: '输入种子',
    featureSeed: (s: number) => `特征种子 ${s}`,
    redraw: '重新抽取特征',
    redrawHelp: '重新抽取随机投影 W；Q、K、V 保持不变',
    input: '输入',
    scale: 'q/k 范数尺度 s',
    scaleHelp: 'q、k 各元素的标准差；s 越大，softmax 越集中，FAVOR+ 也越容易失效',
    structuredHint: (s: number) =>
      `聚类输入和局部输入要在 s 足够大（约 ${s}）时才会产生集中的注意力；低于这个值，它们看起来和高斯输入一样均匀`,
    structuredAction: (s: number) => `改用 s = ${s}`,
    reset: '全部重置',
    mapNames: MAP_NAMES,
    mapChoices: MAP_CHOICES,
    projNames: PROJ_NAMES,
    projChoices: PROJ_CHOICES,
    inputNames: INPUT_NAMES,
    noProjection: '此映射不使用投影',
  },
  names: { maps: MAP_SHORT, projections: PROJ_SHORT, exact: 'softmax（精确）', mapTex: MAP_TEX },
  charts: {
    tableSummary: (what: string) => `数据表：${what}`,
    tableTruncated: (shown: number, total: number) => `共 ${fmtInt(total)} 行，显示前 ${fmtInt(shown)} 行。`,
    series: '曲线',
    low: '下界',
    high: '上界',
    bin: '区间',
    keyAxis: '键 j',
    queryAxis: '查询 i',
    queryRows: '查询行 i',
    keyCols: '键列 j',
    meanValue: '平均值',
    blockMean: (b: number) => `（${b}×${b} 块的均值）`,
    heatmapAria: (title: string, n: number, cells: number, block: number) =>
      `${title}：${fmtInt(n)}×${fmtInt(n)} 的注意力矩阵，显示为 ${cells}×${cells} 个单元${block > 1 ? `，每个单元是 ${block}×${block} 个元素的均值` : ''}。方向键移动高亮的查询行，回车键固定该行。`,
    heatmapTable: (title: string) => `${title}，块均值（至多 16×16）`,
    scaleModes: { linear: '线性刻度', log: '对数刻度' },
  },
  analysis: {
    running: (label?: string) => `计算中${label ? `（${label}）` : ''}…`,
    cancel: '取消',
    run: '运行',
    rerun: '重新运行',
    cancelled: '已取消。图中显示的是最近一次完成的结果（如果有）。',
    stale: '参数已更改；新结果算完之前，先显示之前的结果。',
    waiting: '等待第一个结果…',
    took: (ms: string) => `用时 ${ms}`,
    refining: (label?: string) => `基于较少样本的预览；正在细化${label ? `（${label}）` : ''}…`,
    coarseOnly: '图中是基于较少样本的预览，不是完整的分析结果。',
    computedOn: (backend: 'cpu' | 'webgpu') => (backend === 'webgpu' ? '在 WebGPU 上' : '在 CPU 上'),
  },
  metrics: {
    relErrorA: 'A 的误差',
    relErrorAHint: '‖Â − A‖_F / ‖A‖_F',
    relErrorOut: '输出的误差',
    relErrorOutHint: '‖out − out_exact‖ / ‖out_exact‖',
    meanKL: '平均行 KL',
    meanKLHint: '各行 KL(A_i ‖ Â_i) 的平均值，单位为 nat',
    entropyExact: '熵，softmax',
    entropyPerformer: '熵，线性注意力',
    entropyPerformerOf: (map: string) => `熵，线性注意力（${map}）`,
    entropyHint: '行归一化熵 H/log(键数) 的平均值；1 即平均池化',
    backend: '后端',
    time: '计算用时',
  },
  main: {
    title: '精确 softmax 注意力与它的线性近似',
    lead: '两个矩阵由同一组 Q、K、V 算出。Performer 从不显式构造 Â：它以 O(n·m′·d) 的代价计算 φ(Q)(φ(K)ᵀV)。这里显式构造 Â，只是为了把它画出来。',
    formula: en.main.formula,
    exact: '精确 A（softmax）',
    approx: (map: string) => `Â（${map}）`,
    diff: '|A − Â|',
    heatmapsTitle: (exact: string, approx: string, diff: string) => `${exact}、${approx} 与 ${diff}`,
    colour: '注意力权重（统一色标）',
    colourClipped: '注意力权重（统一色标；最大的 0.5% 用色标顶端的颜色绘制）',
    colourNegative: '负值元素（三角函数特征）',
    scaleLinear: '线性色标',
    scaleLog: '对数色标（4 个数量级）',
    blockNote: (b: number, cells: number) =>
      `n 大于 512：${cells}×${cells} 个单元中，每个单元显示一个 ${b}×${b} 元素块的均值（块均值）。`,
    fullRes: '全分辨率：每个元素占一个单元。',
    noView: (limit: string, backend: string) =>
      tight(
        `热力图和逐行统计需要完整的 n×n 矩阵，在 ${backend} 上只在 n ≤ ${limit} 时请求。超过这个规模只比较输出（线性时间）；下方的行图仍显示完整的一行。`,
      ),
    rowTitle: (i: number, pinned: boolean) => `查询行 i = ${fmtInt(i)}${pinned ? '（已固定）' : ''}`,
    rowCausal: 'j = i：因果掩码去掉其后的所有键',
    rowCausalShort: 'j = i',
    rowHint: '鼠标悬停在热力图的某一行上即可预览；单击固定（键盘用回车键）。再次单击已固定的行即可取消固定。',
    rowHover: (i: number, b: number) =>
      `正在预览第 ${fmtInt(i)}–${fmtInt(i + b - 1)} 行（块均值）；单击即可固定并获取完整的一行。`,
    unpin: '取消固定',
    rowX: '键 j',
    rowY: '注意力权重',
    rowExact: 'softmax A_i',
    rowApprox: (map: string) => `${map} Â_i`,
    rowTable: (i: number) => `第 ${i} 行的注意力`,
    rowDecimated: (k: number) => `这一行很长：每个点取相邻 ${fmtInt(k)} 个键中的最大值。`,
    waiting: '等待计算引擎…',
    onWebgpu: 'WebGPU',
    onCpu: 'CPU 后备路径',
    resultParams: (n: number, d: number, m: number, map: string, s: number, causal: boolean) =>
      `n = ${fmtInt(n)}，d = ${d}，m = ${m}，φ = ${map}，s = ${s}${causal ? '，因果' : ''}`,
  },
  error: {
    title: '1 · 误差有多大，由什么决定？',
    lead: 'FAVOR+ 对 exp(QKᵀ/√d) 的每个元素都是无偏的，但它的方差按 exp(‖x+y‖²) 增长：随 q、k 的范数增长，对高斯输入而言也就是随 d 增长——而不是随 n 增长。正交投影能降低方差；三角函数特征的权重可能为负，在精确值很小的地方误差会爆炸。',
    formula: en.error.formula,
    formulaNote:
      'Performer 论文的引理 2，针对单个元素 SM(x, y) = exp(x·y)，其中 ω ~ N(0, I) 独立同分布，输入 x = q/⁴√d，y = k/⁴√d。',
    resultOf: (params: string) =>
      `前三个数值属于上一次算出的结果（${params}），而不是当前参数：当前参数的计算尚未进行（状态见上方）。`,
    resultNone: '前三个数值尚未按当前参数计算（状态见上方）。',
    sweepTitle: 'A 的误差随随机特征数 m 的变化',
    sweepNote: (seeds: number, rows: number, n: number) =>
      `对 ${seeds} 个特征种子取平均（阴影带：最小值–最大值），${rows} 个查询行对 n′ = ${fmtInt(n)} 个键；虚线为独立同分布投影。点线：把引理 2 的二阶矩按一阶近似传递过行归一化得到的理论值（独立同分布特征）——它是对多次抽样取的均方根，所以在误差较大时，重尾会让它高于典型的单次结果。圆圈：当前这次计算。`,
    xM: '随机特征数 m',
    show: '显示',
    showBoth: '两者',
    showOrth: '正交',
    showIid: '独立同分布',
    yErr: 'A 的相对 Frobenius 误差',
    current: '当前',
    theory: (map: string) => `${map}，理论值（独立同分布）`,
    series: (map: string, proj: string) => `${map}，${proj}`,
    normTitle: '误差随范数尺度 s 的变化',
    normEntropyTitle: 'A 与 Performer 的 Â 的熵随范数尺度 s 的变化',
    normNote: (m: number, seeds: number) =>
      `m = ${m}，${seeds} 个种子，当前投影。在 FAVOR+ 准确的区域（s 较小），softmax 几乎是均匀的；一旦 softmax 变得集中，估计量的相对误差就会爆炸。随着 s 增大，三角函数特征反超正值特征。`,
    xScale: '范数尺度 s（q、k 元素的标准差）',
    yEntropy: '平均行归一化熵',
    entropyExact: 'softmax A',
    entropyPerf: '正值 Â',
    dTitle: '误差随头维度 d 的变化',
    dNote: (s: number, m: number) =>
      `正值特征，s = ${s}，m = ${m}：元素尺度固定时，‖x+y‖² ≈ 2√d·s² 随 d 增长，误差也随之增长——直到 Â 完全偏离 A，误差停在 1 附近。`,
    guidesOff: (names: readonly string[]) => `超出图表范围（数值见数据表）：${names.join('；')}。`,
    saturatedM: (s: number, lo: string, hi: string, canLower: boolean) =>
      `s = ${s} 时，正值特征的误差在每个 m 上都介于 ${lo} 与 ${hi} 之间：此处决定误差的是范数，而不是 m（引理 2 中的因子 exp(‖x+y‖²)）。` +
      (canLower ? '把 s 降到 0.5 左右，就能看到误差按 1/√m 下降。' : ''),
    saturatedD: (s: number, first: string, d0: number, canLower: boolean) =>
      `s = ${s} 时，误差在 d = ${d0} 处已达 ${first}，之后一直接近 1：已饱和。` +
      (canLower ? '把 s 降到 0.5 左右，就能看到它随 d 增长。' : ''),
    xD: '头维度 d',
    blowTitle: '逐元素相对误差与精确元素值的关系',
    blowNote:
      '按 A_ij 分箱后 |Â_ij − A_ij| / A_ij 的中位数（阴影带：10%–90%）。A_ij → 0 时，正值特征的相对误差保持有界，三角函数特征则不然。',
    blowSmallest: (trig: string, pos: string) =>
      `在最小的精确元素处，三角函数特征的相对误差中位数为 ${trig}，正值特征为 ${pos}。`,
    xEntry: '精确元素 A_ij',
    yRel: '|Â_ij − A_ij| / A_ij',
    tableSweep: '误差随 m 的变化：各种子的均值与范围',
    tableNorm: '误差随范数尺度的变化',
    tableEntropy: '熵随范数尺度的变化',
    tableD: '误差随 d 的变化',
    tableBlow: '按精确元素大小分组的相对误差',
  },
  sparsity: {
    title: '2 · 稀疏性：softmax 能聚焦，1 + elu 会摊平',
    lead: 'eˣ 会拉大分数之间的差距，所以 softmax 的行可以集中在少数几个键上。1 + elu 是 eˣ 的一阶展开，缺少这种放大作用：它的行接近平均池化，并随 n 增大趋于平均池化（苏剑林，《Performer：用随机投影将 Attention 的复杂度线性化》，科学空间，kexue.fm/archives/8338）。Performer 的正随机特征估计的是 eˣ 本身，所以它的 Â 跟随 softmax 的集中——被采样噪声模糊，而不是被摊平——除非稳定化常数把它淹没（见下文）。归一化熵 H/log(键数) 衡量的就是这一点：1 表示平均池化，0 表示只关注一个键。',
    formula: String.raw`\bar H=\frac1n\sum_i\frac{-\sum_j A_{ij}\log A_{ij}}{\log(\text{行 }i\text{ 的键数})},\qquad \text{top-}k\text{ 质量}_i=\sum_{j\in\text{top-}k}A_{ij}`,
    histTitle: '行熵的分布',
    histNote: (rows: number, n: number) => `在 n = ${fmtInt(n)} 中均匀间隔地选取 ${fmtInt(rows)} 个查询行。`,
    histZoom: (lo: number) => `横轴从 ${lo} 开始：每一行都至少这么平坦。`,
    xEntropy: '行归一化熵',
    yShare: '行的占比',
    topTitle: 'top-k 质量（各行平均）',
    xK: '键数 k',
    yMass: '前 k 个键上的注意力质量',
    nTitle: '平均归一化熵随 n 的变化',
    nNote: (rows: number) => `每个 n 取 ${rows} 个查询行（种子相同；高斯输入是同一次抽样的前缀）。已标出当前的 n。`,
    xN: '序列长度 n',
    localTitle: '苏剑林的实验：把线性注意力截断到局部窗口',
    localNote: (map: string) =>
      `只保留 Â（${map}）中 |i − j| ≤ w 的元素，逐行重新归一化，再与精确 A 比较。截断使矩阵变得稀疏——不再是线性时间，仅作演示。点线截断的是精确 A 本身：即窗口本身丢掉的部分。当 softmax 是局部的而某个映射把注意力摊平时，截断有帮助——局部输入上的 1 + elu，正是苏剑林的例子；对 Performer 的正随机特征几乎没有帮助，因为它们已经跟随 softmax 的局部性；对稠密的高斯输入，截断只会有害。`,
    xW: '窗口内的键数：2w + 1（因果：w + 1）',
    yErrA: '相对精确 A 的误差',
    truncApprox: (map: string) => tight(`截断后的 ${map} Â`),
    truncExact: '截断后的精确 A',
    truncOut: (map: string) => tight(`输出误差，截断后的 ${map}`),
    fullLine: '不截断',
    exactFull: '窗口取满时，截断后的精确 A 就是 A 本身：误差为 0，落在对数坐标轴之外。',
    localLimit: (limit: string) => `局部截断实验需要稠密的 n×n 矩阵：n ≤ ${limit}。`,
    tableHist: '归一化熵直方图',
    tableTop: 'top-k 质量',
    tableN: '熵随 n 的变化',
    tableLocal: '误差随窗口的变化',
    exact: 'softmax（精确）',
    topMass: (k: number, who: string) => `top-${k} 质量，${who}`,
    trigNote:
      '三角函数特征会让 Â 出现负值，因此它的行不是概率分布：“熵”只计入正元素，top-k 质量也可能超过 1。这种不稳定性正是这组对比要说明的。',
    perf: (map: string) => `${map}（当前）`,
    elu: '1+elu',
    entropyElu: '熵，1+elu',
  },
  rank: {
    title: '3 · 秩：低秩分解装不下的东西',
    lead: 'QKᵀ 的秩 ≤ d，但逐元素取指数之后，A 的秩最高可达 n。而 Â = D⁻¹φ(Q)φ(K)ᵀ 的秩无论 n 多大都 ≤ m′——所以线性注意力需要 m′ 大于 d（Performer 取 m = 4d）。因果掩码会改变这一局面：对角元非零的下三角矩阵是可逆的，A 与 Â 都是如此。',
    formula: en.rank.formula,
    spectrumTitle: '奇异值（除以 σ₁ 归一化）',
    xIndex: '序号 i',
    ySigma: 'σ_i / σ₁',
    exact: '精确 A',
    approx: (map: string) => `Â（${map}）`,
    scores: 'QKᵀ/√d（无掩码）',
    lineD: (d: number) => `d = ${d}`,
    lineM: (m: number) => `m′ = ${m}`,
    tol: '容差 τ',
    tolHelp: '数值秩 = #{σ_i > τ·σ₁}；f32 能分辨约 6·10⁻⁸，f64 约 10⁻¹⁶',
    rankExact: 'A 的数值秩',
    rankApprox: 'Â 的数值秩',
    rankScores: 'QKᵀ 的数值秩',
    effExact: 'A 的有效秩',
    effApprox: 'Â 的有效秩',
    triangular: (a: string, b: string) =>
      `因果：A 与 Â 都是下三角矩阵，最小对角元分别为 ${a} 和 ${b} > 0，因此在精确算术下二者都可逆（满秩）；但它们最小的奇异值仍可能低于 τ。`,
    limit: (limit: string, n: string) =>
      `奇异值谱需要对 n×n 矩阵做奇异值分解（O(n³)，在 CPU 上以 f64 计算），只在 n ≤ ${limit} 时提供。当前 n = ${n}：减小 n 即可看到。`,
    sizeNote: (n: number) =>
      `在完整的 ${fmtInt(n)}×${fmtInt(n)} 矩阵上以 f64 计算（Â 与 QKᵀ 经由其低秩因子计算；使用 GPU 时 A 与 Â 在 GPU 上以 f32 生成，σ 的变化 ≲ 10⁻⁶·σ₁）。恰好为零的奇异值——Â 中超出 m′ 的、QKᵀ 中超出 d 的——无法画在对数轴上；小于 10⁻¹⁷（f64 舍入误差）的值画在 10⁻¹⁷ 处。`,
    causalToggle: '因果掩码（与实验设置中的开关相同）',
    tableSpectra: '奇异值',
  },
  features: {
    title: '4 · 特征映射：为什么是 eˣ，Performer 真正多做了什么',
    lead: '线性注意力用 φ(q)·φ(k) 代替 exp(q·k)。1 + elu(x) 是 eˣ 在 0 处的一阶泰勒展开（并保持为正），ReLU 则完全是另一个核，而 FAVOR+ 是对 exp(q·k) 本身的无偏随机特征估计。',
    curvesTitle: '标量曲线',
    xX: 'x',
    yF: 'f(x)',
    tangent: 'eˣ 在 0 处的切线：1 + x',
    rowsTitle: (i: number) => `查询行 i = ${fmtInt(i)} 在各个映射下的结果，与 softmax 对照`,
    rowsNote: (m: number, proj: string) => `所有使用投影的映射都用同一组 Q、K 和同一个 W（m = ${m}，${proj}）。`,
    mapLegend: '该映射的 Â_i（映射对应的颜色）',
    rowStats: (err: string, kl: string, h: string) => `误差 ${err} · KL ${kl} · 熵 ${h}`,
    rowOwnScale: '单独的纵轴：这个 Â 超出 [0, 1]。',
    lambdaTitle: 'λ 不变性：逐查询的因子会被消去',
    lambdaText:
      '把 φ(q_i) 乘以任意 λ(q_i) > 0 都不会改变 Â，因为同一个因子同时出现在分子和行和里。所以对查询而言，FAVOR+ 的因子 exp(−‖q‖²/2) 可以精确地去掉。键的因子 exp(−‖k‖²/2) 只有在键范数变化很小时才能近似地去掉。',
    lambdaFormula: en.features.lambdaFormula,
    lambdaMeasured: (q: string, both: string, spread: string) =>
      `在这一行上实测：去掉查询因子使 Â_i 改变 ${q}（仅为舍入误差）；去掉两个因子（即 eˣ 映射）使它改变 ${both}，此时键范数 ‖y_j‖² 的变异系数为 ${spread}。`,
    foldTitle: '把 W 并入投影',
    foldText:
      '去掉查询因子后，φ(q) = exp(Wq)：先做一个 d→m 的线性映射，再接激活函数 eˣ。Transformer 中 q、k 的投影本来就是线性层，所以 W 可以并入其中——把键的维度从 d 扩大到 m，再以 eˣ 为激活函数。这样 W 是学出来的而不是随机的：空间比 Performer 的更大，秩的上限同样是 m。',
    foldFormula: en.features.foldFormula,
    tableCurves: '标量曲线',
    tableRows: '各映射下的注意力行',
  },
  embed: {
    poweredBy: '细看 Performer',
  },
  embedding: {
    open: '嵌入',
    openHint: (panel: string) => `把“${panel}”嵌入网页`,
    openHintAll: '把本页的一幅图嵌入网页',
    dialogTitle: '把图嵌入你的网页',
    dialogLead:
      '把这段 HTML 粘贴到你的网页中。读者滚动到附近时框架才加载，只在出现在屏幕上时计算，并自动调整为内容的高度；脚本只接受来自本解释器源（origin）的尺寸消息。图的初始设置就是你现在看到的设置。',
    panel: '面板',
    figure: '图',
    wholePanel: '整个面板（所有图及文字）',
    figureHint: '单独一幅图：不含面板的文字和其他图，只运行这幅图的分析。',
    controls: '随图显示的控件',
    controlsHint: '都不勾选：只显示图',
    frameId: '框架 id',
    frameIdHint: '消息中用来指明该框架；1–64 个字母、数字、- 或 _',
    frameIdInvalid: '框架 id 须为 1–64 个字母、数字、- 或 _；下面的代码仍使用上一个有效的 id。',
    snippet: '要粘贴的 HTML',
    copy: '复制',
    copied: '已复制到剪贴板。',
    copyFallback: '代码已选中：按 Ctrl+C（Mac 上按 ⌘C）复制。',
    preview: '单独打开这个嵌入页',
    close: '关闭',
    controlNames: {
      n: '序列长度 n',
      d: '头维度 d',
      m: '随机特征数 m',
      scale: '范数尺度 s',
      map: '特征映射 φ',
      proj: '投影 W',
      input: '输入',
      causal: '因果掩码',
      seed: '输入种子',
    },
    panelNames: {
      main: '精确注意力与线性注意力',
      error: '近似误差',
      sparsity: '稀疏性',
      rank: '秩',
      'feature-maps': '特征映射',
      speed: '速度',
      beyond: '超越 Performer',
      training: '学习：训练一个小 Transformer',
    },
    frameTitle: (panel: string) => `近距离看 Performer：${panel}（交互式图）`,
    strip: '图的控件',
    scaleShort: 's',
    credit: '近距离看 Performer（Performer, up close）',
    openFull: '用相同设置打开完整的解释器',
    paused: '不在屏幕上时暂停计算。',
    computing: '计算中…',
    unknownTitle: '没有这幅图',
    unknown: (raw: string, valid: string) => `没有可嵌入的面板“${raw}”。可用的面板有：${valid}。`,
    unknownPick: '显示其中之一：',
    allHidden: (list: string) => `地址中的 hide=${list} 隐藏了所有面板，因此没有可显示的内容。`,
    showAll: '显示所有面板',
  },
  export: {
    png: 'PNG',
    svg: 'SVG',
    csv: 'CSV',
    toolbar: (title: string) => `下载「${title}」`,
    pngAria: (title: string) => `下载「${title}」的 PNG 图片`,
    svgAria: (title: string) => `下载「${title}」的 SVG 矢量图`,
    csvAria: (title: string) => `下载「${title}」的数据，格式 CSV`,
    failed: (message: string) => `导出失败：${message}`,
    caption: (p: ExportCaption) =>
      `细看 Performer · n = ${fmtInt(p.n)}，d = ${fmtInt(p.d)}，m = ${fmtInt(p.m)}，φ：${p.map}，s = ${fmt(p.scale)}${p.causal ? '，因果' : ''}`,
    json: '下载当前状态（JSON）',
    jsonBusy: '正在生成 JSON…',
    jsonHint: '参数、Q、K、V、W、精确的 A、Â、两种输出以及上方的各项指标，合为一个 JSON 文件。',
    jsonWaiting: '第一个结果显示后即可下载。',
    jsonLimit: (limit: string, n: string) =>
      `JSON 包含稠密的 n×n 矩阵，因此仅在 n ≤ ${limit} 时提供（当前 n 为 ${n}）；请减小 n 后再导出。`,
  },
  upload: {
    heading: '使用你自己的 Q 和 K',
    intro:
      '载入 Q 和 K（V 可选）：.npy（float32 或 float64，C 顺序，形状 [n, d]）或 CSV。之后所有面板都在这些数据上计算；数据不会离开你的浏览器。',
    drop: '把 .npy 或 CSV 文件拖到这里（文件名为 q、k、v——或逐个拖到对应的槽位）',
    dropActive: '松开即可载入',
    slotNames: { q: 'Q', k: 'K', v: 'V（可选）' },
    choose: (slot: string) => `选择 ${slot}…`,
    chooseAria: (slot: string) => `为 ${slot} 选择 .npy 或 CSV 文件`,
    empty: '无文件',
    vDefault: '由输入种子生成的高斯矩阵',
    fileInfo: (name: string, rows: number, cols: number, kind: string) =>
      `${name} · ${fmtInt(rows)} × ${fmtInt(cols)} · ${kind}`,
    kinds: { float32: '.npy float32', float64: '.npy float64（舍入为 float32）', text: '文本' },
    notes: {
      bom: '已忽略字节顺序标记（BOM）',
      'header-row': '已跳过表头行',
      comments: '已跳过 # 注释行',
      float64: 'float64 已舍入为 float32',
    },
    waiting: (slots: string) => `还缺 ${slots}：在它载入之前，各面板继续使用当前的输入。`,
    active: (n: number, d: number, rms: string) =>
      `正在使用你的 Q、K：n = ${fmtInt(n)}，d = ${fmtInt(d)}（元素的均方根 ${rms}）。`,
    remove: '移除上传的数据',
    rejected: (file: string, why: string) => `未载入：${file}——${why}。页面上的一切保持不变。`,
    dismiss: '关闭',
    tooMany: '最多拖入三个文件（Q、K 和 V）。',
    lockedHelp: '由上传的文件决定（移除文件后才能修改）',
    lockedHelpTrained: '由训练好的头决定：模型的序列长度与头维度（选择其他输入后才能修改）',
    scaleLocked: (rms: string) => `上传的 Q、K 按原样使用；其元素的均方根为 ${rms}`,
    scaleLockedTrained: (rms: string) => `按模型算出的原样使用该头的 Q、K；其元素的均方根为 ${rms}`,
    notInLink:
      '这个链接是在上传 Q 和 K 之后生成的，而上传的数据从不包含在链接中。现在显示的是生成的输入——请重新载入文件以查看它们。',
    locked: (key: string, trained = false) =>
      trained
        ? `${LOCKED_NAMES_ZH[key] ?? key} 由训练好的头决定；选择其他输入后才能修改。`
        : `${LOCKED_NAMES_ZH[key] ?? key} 由上传的文件决定；移除上传的数据后才能修改。`,
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
  stab: {
    label: 'eˣ 特征的稳定化方式',
    names: { shift: '减最大值（精确估计量）', ref: '减最大值 + ε = 10⁻⁶（参考）' },
    help: '减去最大值在 Â 的行归一化中会完全抵消；像参考实现那样再加上 ε = 10⁻⁶ 则不会：范数较大时它会淹没极小的真实特征，使 Â 变平。',
    zeroRows: (k: number, n: number, cause: ZeroNormalizerCause) =>
      `${fmtInt(k)} / ${fmtInt(n)} 个查询行的归一化因子全为零：${ZERO_ROWS[cause].why}这些行的 Â 和输出显示为 0，而不是一个概率分布。${ZERO_ROWS[cause].fix}`,
    figureTitle: 'Performer 的 Â 的熵随范数尺度的变化：有无 ε',
    elsewhere:
      '参考代码的 ε = 10⁻⁶ 如何在大范数下淹没并摊平 Performer 的 Â——即有无 ε 时 Â 的熵随 s 的变化——画在第 1 部分，与误差随 s 的变化并列：',
    elsewhereEnd: '。',
    flattenNote:
      '参考实现在减去最大值之后给每个正特征加上 ε = 10⁻⁶；范数较大时，真实的键特征（s = 2、d = 16 时约为 e⁻²⁴）远小于 ε，于是 ε 压倒了所有特征，Â 趋向平均池化（虚线），而估计量本身（实线）随 softmax 一起继续集中。',
    seriesShift: '正特征 Â，仅减最大值（估计量）',
    seriesRef: '正特征 Â，+ ε = 10⁻⁶（参考实现）',
    errorRef: '正特征，+ ε = 10⁻⁶（参考实现）',
    errorShift: '正特征，仅减最大值（估计量）',
    table: '不同稳定化方式下 Â 的熵随范数尺度的变化',
    causalNote:
      '因果模式下的“平移 + ε”：参考实现在加 ε 之前减去所有键（包括未来的键）上的最大值；ε 不会抵消，所以这个最大值会让后面的键改变前面的行。这里因果模式的键平移取第 0 个键的最大值——每一行都能看到的唯一一个键。',
  },
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
    controlNames: {
      n: '序列长度 n',
      d: '头维度 d',
      m: '随机特征数 m',
      scale: '范数尺度 s',
      causal: '因果（解码器）掩码',
      head: '训练好的头',
    },
    sourcesLabel: '依据',
    sources: {
      blog: 'Choromanski 与 Colwell，Google AI 博客，2020 年 10 月（“用 Performer 重新思考注意力”）',
      paper: 'Choromanski 等，ICLR 2021，arXiv:2009.14794',
      su: '苏剑林，科学空间，kexue.fm/archives/8338',
      katharopoulos: 'Katharopoulos 等，“Transformers are RNNs”，ICML 2020',
      based: 'Arora 等，ICML 2024（MQAR）',
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
    speedRun: (budget: string) => `运行（${budget}）`,
    speedRerun: (budget: string) => `再次运行（${budget}）`,
    speedIdle:
      '浮点运算数的计数：二者在 n = 2m′ 处相等。按“运行”在本机上为精确注意力、Performer 和伪注意力计时，n 从 64 起。',
    speedStat: (cross: string, exact: string, perf: string, backend: string) =>
      `实测交叉点 ${cross}；精确 ${exact} GFLOP/s，Performer ${perf} GFLOP/s（各自最大 n，${backend}）`,
    speedStale: 'd 或 m 已改变：请为新值再次运行。',
    costMeasured: (exact: string, perf: string, backend: string) =>
      `当前 n 的实测（${backend}）：精确 ${exact}，Performer ${perf}`,
    orthSeries: (proj: string) => `FAVOR+，${proj}`,
    orthStat: (seeds: number, rows: number, n: number) =>
      `${seeds} 次抽取 W 的平均（色带：最小–最大），${rows} 个查询行，n = ${n}`,
    theoryIid: '理论（引理 2，独立同分布）',
    curvesTitle: 'eˣ 及其一阶泰勒展开',
    rowTitle: (i: number) => `查询行 i = ${i}`,
    mapStat: (map: string, h: string) => `${map}：熵 ${h}`,
    spectraStat: (rA: string, rHat: string, tol: string) => `数值秩（τ = ${tol}）：A ${rA}，Â ${rHat}`,
    normStat: (m: number, seeds: number) =>
      `m = ${m}，每个点抽取 ${seeds} 次 W（色带：其离散范围）；精确熵取自同样的行`,
    normErrorTitle: 'FAVOR+ 的误差随范数尺度 s 的变化',
    normEntropyTitle: 'softmax 的熵随范数尺度 s 的变化',
    headOption: (model: string, layer: number, head: number) =>
      `${model === 'mqar' ? 'MQAR 关联回忆' : '语法语言模型'}：第 ${layer + 1} 层，第 ${head + 1} 头`,
    headStat: (f: HeadStatFacts) =>
      `H(A) = ${f.entropy} 奈特（均匀：${f.uniform}）· m = ${f.m} 时误差 ${f.error} · m = ${f.ms} 时 ${f.draws} 次抽取的平均误差：${f.errors}`,
    steps: {
      quadratic: {
        title: '注意力要把每个查询与每个键比较',
        caption: 'n 个 token 产生 n² 个得分：序列长度翻倍，时间和内存变为四倍。拖动 n，看矩阵如何变大。',
      },
      kernel: {
        title: 'softmax 注意力是一个核函数',
        caption:
          '每个权重是 exp(q·k/√d) 再按行归一化：缩放后的查询与键之间的一个核。这里 q 和 k 编码了位置；增大范数尺度 s，每个查询都集中到它的邻居上。',
      },
      features: {
        title: '正值随机特征',
        caption:
          'FAVOR+ 把这个核写成对随机方向 ω 的平均，只保留 m 个方向。每个特征都是正的，所以 Â 仍是合法的概率分布。特征越多，噪声越小。',
      },
      orthogonal: {
        title: '正交特征：代价相同，误差更小',
        caption:
          '让各个 ω 两两正交（长度仍服从高斯分布），估计保持无偏，并且对任意 d 都降低方差。实线：正交；虚线：独立同分布；点线：理论值。',
      },
      linear: {
        title: '结合律让它变成线性',
        caption:
          '先算 φ(K)ᵀV：一个汇总了所有键的 m×d 矩阵，供每个查询重复使用。代价随 n 而不是 n² 增长；n 超过约 2m 后，Performer 的运算量更少。',
      },
      causal: {
        title: '用前缀和实现因果注意力',
        caption:
          '解码器只能往回看。对已见过的键累加 φ(k_j)v_jᵀ 和 φ(k_j)，每个 token 只需一次更新就得到输出——仍然是线性的。',
      },
      maps: {
        title: 'eˣ 与 1 + elu',
        caption:
          '1 + elu(x) 是 eˣ 的一阶泰勒展开。它无法把较大的得分差距变成较大的权重，所以各行保持平坦；FAVOR+ 估计的是 eˣ 本身，能跟上尖峰状的行。',
      },
      sparsity: {
        title: 'softmax 能聚焦，1 + elu 则分散',
        caption:
          '一行注意力中最大的 k 个权重所占的份额。softmax 把大部分权重放在少数几个键上；1 + elu 把它摊薄，趋近于平均池化。',
      },
      rank: {
        title: '低秩：线性注意力至多为 m，softmax 可达 n',
        caption:
          'QKᵀ 的秩不超过 d，φ(Q)φ(K)ᵀ 的秩不超过 m，但逐元素取指数可以把 softmax 注意力提升到满秩。奇异值显示了各个谱在哪里衰减。',
      },
      concentration: {
        title: '集中的代价',
        caption:
          '随着 s 增大，softmax 越来越集中（右：熵下降），而 FAVOR+ 的误差急剧增大（左）。在估计准确的地方，注意力几乎是均匀的。',
      },
      trained: {
        title: '训练好的头：行很尖锐，更多特征几乎无济于事',
        caption:
          '一个在关联回忆（MQAR）上训练的头：每个查询找到与之配对的键，所以它的行很尖锐。在同样的 Q、K 上用 FAVOR+：增加特征几乎不降低误差。',
      },
      speed: {
        title: '线性注意力换来了什么：博客中的速度图，现场测量',
        caption:
          '本机上单个注意力头的耗时随 n 的变化（双对数坐标）。精确注意力按 n² 增长，Performer 按 n 增长，伪注意力（直接返回 V）是任何注意力都要付出的下限。越过交叉点后 Performer 更快，且 n 每翻一倍差距就更大。',
      },
      learning: {
        title: '线性注意力放弃了什么，在训练中看：联想回忆',
        caption:
          '按“训练”：一个小 Transformer 分别用 softmax 注意力和线性注意力学习键值回忆，数据和种子相同。softmax 几乎完美地回忆；线性注意力固定的 m′ × d 状态装不下所有键值对，于是停滞。',
      },
    },
  },
  hedgehog: {
    title: '在这里拟合的可学习特征映射：Hedgehog',
    lead: '不再随机抽取 W，而是学习它：φ(x) = [softmax(Wx) ‖ softmax(−Wx)]（m′ = 2m 个特征，取正值且有界），训练 W 使 Â 模仿当前这个注意力头的 softmax 注意力——在你的浏览器中用梯度下降最小化 A 与 Â 各行之间的交叉熵。',
    cite: 'M. Zhang, K. Bhatia, H. Kumbong, C. Ré，《The Hedgehog & the Porcupine: Expressive Linear Attentions with Softmax Mimicry》，ICLR 2024',
    lossFormula: en.hedgehog.lossFormula,
    recipe: (steps: number, positions: number) =>
      `训练方案（固定不变，因此同一链接会得到同样的 W）：从特征种子对应的随机投影出发，使用余弦学习率调度的 Adam 优化 ${steps} 步，训练数据为前 ${positions} 个位置；梯度为手工推导，推导过程写在`,
    recipeEnd: ' 中。',
    train: '训练',
    retrain: '重新训练',
    cancel: '取消',
    training: (step: number, steps: number) => `训练中：第 ${step} / ${steps} 步`,
    evaluating: '正在拟合序列和留出序列上评估拟合后的映射…',
    cancelled: '训练已取消。在重新训练之前，该映射保持未拟合状态。',
    failed: '训练失败：',
    idle: '尚未针对当前参数训练。选择特征映射“Hedgehog”会自动开始训练，也可以点击“训练”。',
    done: (ms: string, steps: number) => `训练用时 ${ms}（${steps} 步）。`,
    autoNote: '当特征映射为 Hedgehog 时，上方的对比会等待这次拟合完成，然后显示拟合后映射的 Â。',
    lossTitle: '训练损失（Â 相对于 A 的交叉熵）',
    lossX: '步数',
    lossY: '损失',
    lossSeries: '损失',
    lossTable: '每一步的训练损失',
    lossFloor: '下限：平均 H(A_i)',
    lossFloorNote: (floor: string, gap: string) =>
      `损失不可能低于 A 各行的平均熵（${floor}）；高出的部分就是平均 KL(A_i ‖ Â_i) = ${gap}——这是一个共享的 W、m′ = 2m 个特征所无法表达的部分。`,
    tableTitle: (mp: number) => `相同特征维度 m′ = ${mp} 下 A 的误差`,
    colMap: '特征映射',
    colFitted: (positions: number) => `拟合序列（${positions} 个位置）`,
    colHeldOut: '留出序列',
    colKl: '平均 KL（拟合序列）',
    rowHedgehog: 'Hedgehog，拟合后的 W',
    rowInit: 'Hedgehog，初始（随机）W',
    rowRandom: (seeds: number) => `FAVOR+ 正随机特征（${seeds} 个种子的均值 ± 标准差）`,
    heldOutSeed: (seed: number) =>
      `留出序列：来自同一分布的新序列（相同的输入类型、尺度、n、d；输入种子 ${seed}）。这里只报告结果，不作保证：针对某个注意力头的序列拟合的映射未必能迁移。`,
    heldOutTail: '留出序列：你上传的序列中紧随其后的位置。',
    heldOutNone: '留出序列：你上传的序列太短，拟合位置之外没有可留出的位置。',
    metricFitted: 'A 的相对误差，拟合序列（Hedgehog）',
    metricHeldOut: 'A 的相对误差，留出序列（Hedgehog）',
    metricRandom: 'A 的相对误差，拟合序列（FAVOR+，相同 m′）',
    metricLoss: '最终损失',
    metricHint: '拟合位置上的 ‖Â − A‖_F / ‖A‖_F',
  },
  estimators: {
    oprfNote: (rho: string, a: string) =>
      `FAVOR++（Likhosherstov 等，2022）保留 FAVOR+ 的正性，并加入 A‖ω‖²（A ≤ 0），使每个特征都有界；A 的取值使所有查询–键对上的平均方差最小。对当前的 Q、K：ρ = ‖x_i + y_j‖²/d 的均值 = ${rho}，因此 A = ${a}（A = 0 即 FAVOR+）。它降低了每个元素的均方误差，而 FAVOR+ 的均方误差主要来自罕见的巨大估计值；单次抽取的 W 通常一个也不含，所以在大范数下 Â 的误差未必随之下降。`,
    oprfCausalNote: (rho: string, a: string) =>
      `因果模式：上面的 ρ 是对所有查询–键对取平均，于是 A（以及每个特征）会依赖每个位置之后的键，前面的行就看到了未来。因果变体在序列之前就固定 A：对单位方差的 q、k，ρ = E‖x + y‖²/d = 2/√d（此处为 ${rho}），因此 A = ${a}。对任意 A < 1/4，FAVOR++ 都是无偏的；这个 A 对单位方差输入方差最小，而不是对当前的 Q、K。`,
    dsCausalNote:
      '因果模式：键一侧的 softmax 对每个坐标在全部 n 个位置上归一化，其中包括未来的位置，而逐坐标的归一化因子在 Â 中不会抵消。因果变体去掉这些因子：键特征取 exp(k_c)，只减去一个对所有键和坐标共同的平移量（它会抵消），与 performer-pytorch 在因果注意力中的做法相同。',
    cosformerNote:
      'cosFormer（Qin 等，2022）把苏剑林的局部截断实验（稀疏性面板）的想法直接做进了核函数：它不把 Â 截断到窗口 |i − j| ≤ w（那样就不再是线性复杂度），而是把每个 ReLU 分数乘以 cos(π(i − j)/2M)。由 cos(a − b) = cos a cos b + sin a sin b，这可以拆成两个线性注意力，特征为 relu(x_i)·cos θ_i 和 relu(x_i)·sin θ_i，θ_i = πi/2M，双向与因果模式均适用。取论文的选择 M = n 时，权重从 i = j 处的 1 平滑衰减到 |i − j| = n − 1 处的接近 0：这是一种局部性先验，而不是窗口。',
    taylorNote:
      '1 + x + x²/2 是 eˣ 的二阶泰勒展开，是 1 + elu 之后的下一步：它对任意 x 都为正（最小值 ½，在 x = −1 处），而作为核 1 + x·y + (x·y)²/2，它有精确的特征映射 [1, x, vec(x xᵀ)/√2]，共 1 + d + d² 个特征（Based 的映射：Arora 等，2024）。',
    taylorDim: (mp: string) => `二阶泰勒映射：1 + d + d² = ${mp} 个特征`,
    taylorTooLarge: (d: number, mp: string, max: string, dMax: number) =>
      `d = ${d} 对二阶泰勒映射来说太大：1 + d + d² = ${mp} 个特征，上限为 ${max}（d ≤ ${dMax}）。请减小 d 或选择其他映射。`,
  },
  firstscreen: {
    badgeWarming: 'CPU（WebGPU 启动中…）',
    badgeWarmingTitle:
      'WebGPU 正在编译计算管线，期间由 CPU 计算图表；WebGPU 一旦就绪，图表会自动在 WebGPU 上重新计算。',
    backendName: { webgpu: 'WebGPU', cpu: '处理器（CPU）' },
    computingOn: (backend: string) => `正在 ${backend} 上计算…`,
    estimate: (est: string, elapsed: string) => `预计约 ${est} · 已用 ${elapsed}`,
    elapsed: (elapsed: string) => `已用 ${elapsed}`,
    longRun: (params: string, est: string, backend: string) =>
      `这次计算（${params}）预计在 ${backend} 上需要约 ${est}。完成之前屏幕上保留上一次的结果；点击“取消”可停止计算。`,
    progressLabel: (est: string) => `已用时间与预计的 ${est} 之比`,
    cancel: '取消',
    cancelledReverted: (params: string, est: string) =>
      `已取消 ${params} 的计算（预计约 ${est}）。控件已恢复为当前所示结果的参数。`,
    cancelledNothing: (params: string, est: string) => `已取消：${params} 尚未计算任何结果（预计约 ${est}）。`,
    computeAnyway: '仍然计算',
    held: (params: string, est: string, backend: string, shown: boolean) =>
      `尚未开始：这次计算（${params}）预计在 ${backend} 上需要约 ${est}。${shown ? '屏幕上保留上一次的结果。' : '目前尚未计算任何结果。'}`,
    computedOn: (backend: string, ms: string) => `在 ${backend} 上计算，用时 ${ms}`,
    firstFailed: '首次计算失败，因此暂时没有可显示的结果。',
    fixHint: '请调整参数（更小的尺度 s、更小的 d 或换一种特征映射）后重试。',
    duration: (ms: number) => {
      if (ms < 1_000) return '不到 1 秒';
      if (ms < 60_000) return `${Math.round(ms / 1_000)} 秒`;
      if (ms < 3_600_000) return `${Math.round(ms / 60_000)} 分钟`;
      if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)} 小时`;
      return `${Math.round(ms / 86_400_000)} 天`;
    },
  },
  speed: {
    title: '速度：时间与序列长度',
    lead: 'Choromanski 与 Colwell 在 Google AI 博客文章（2020 年 10 月，即“用 Performer 重新思考注意力”一文）中的核心图，以双对数坐标绘制时间与序列长度的关系：常规注意力呈平方增长，并在内存耗尽处中断；而 Performer 始终接近“伪”注意力——它直接返回 V，代表任何注意力所能达到的最优效率。这里用本页自己的内核，在你的机器上实时测出同一张图。',
    formula: String.raw`\underbrace{4n^2d}_{\text{精确}}\quad\text{对比}\quad \underbrace{8\,n\,m'd}_{\text{Performer}}\qquad\Rightarrow\qquad n_\times = 2m'\cdot\frac{R_{\text{精确}}}{R_{\text{Performer}}}`,
    formulaNote:
      '浮点运算模型（一次乘加计 2 次）：精确注意力计算 Q Kᵀ 与 A V；Performer 把 Q、K 投影到 m′ 个特征上，再计算 φ(K)ᵀ V 与 φ(Q) S。若每次浮点运算的速度相同，两者在 n = 2m′ 处代价相等；R 为各方法实测的 GFLOP/s。',
    citePrefix: '本面板实时测量的，正是以下文章中的速度图：',
    blogCite: 'Choromanski 与 Colwell，Google AI 博客，2020',
    run: '运行',
    rerun: '再次运行',
    cancel: '取消',
    budget: '时间预算',
    budgetOption: (s: number) => (s < 60 ? `${s} 秒` : `${s / 60} 分钟`),
    budgetHelp:
      '预算涵盖整个运行。每种方法先测第一个点（n = 64，同时编译其内核），余下的预算平均分给各方法；当预测下一个（加倍的）n 会超出其份额时，该方法停止。',
    layerToggle: '同时测一个 Transformer 层',
    heavy: '计时对机器负担较重：只有按下“运行”才会开始。',
    idle: '尚无测量结果。按“运行”即可在本设备上从 n = 64 起测量精确注意力、Performer 与伪注意力。',
    calibrating: (what: string) => `正在校准：${what}…`,
    measuring: (what: string, n: number) => `正在测量 ${what}，n = ${fmtInt(n)}…`,
    estimate: (ms: string) => `预计用时：${ms}（依据浮点运算模型与每种方法的一个校准点）。`,
    elapsed: (done: string, total: string) => `已用 ${done}，共约 ${total}`,
    cancelled: '已取消；仍显示上一次的结果（如有）。',
    failed: (msg: string) => `速度测试失败：${msg}。仍显示上一次的结果（如有）。`,
    took: (ms: string, budget: string) => `测量用时 ${ms}（预算 ${budget}）。`,
    timing: {
      timestamp: (adapter: string) =>
        `在 GPU（${adapter}）上用 GPU 时间戳查询计时：各方法所有计算通道之和，预热一次后取至多 5 次运行的中位数。`,
      wall: (adapter: string) =>
        `在 GPU（${adapter}）上以从提交到 onSubmittedWorkDone 的挂钟时间计时（该设备不支持时间戳查询），预热一次后取至多 5 次运行的中位数。`,
      cpu: (reason: string) =>
        `CPU 回退（${reason}）：这里计时的是各内核在引擎 worker 中运行的 CPU 对照实现，n 的范围更小——并非 GPU 数据。`,
    },
    methods: {
      exact: '精确（融合 softmax）',
      'performer-bidirectional': 'Performer，双向',
      'performer-causal': 'Performer，因果（前缀和）',
      dummy: '伪注意力（返回 V）',
      'layer-exact': '使用精确注意力的层',
      'layer-performer': '使用 Performer 注意力的层',
      'layer-dummy': '使用伪注意力的层',
    } as Record<string, string>,
    flopTitle: '运行之前：浮点运算模型',
    yFlops: '每个头的浮点运算数',
    flopExact: '精确，4n²d',
    flopPerformer: 'Performer，8nm′d',
    markEqual: (n: string) => `浮点运算数相等：n = 2m′ = ${n}`,
    flopNote: (d: number, m: number) =>
      `这是计数而非测量：一个注意力头，d = ${d}，m′ = ${m}（一次乘加计为 2）。精确注意力的浮点运算数随 n² 增长，Performer 的随 n 增长，二者在 n = 2m′ 处相等。按“运行”即在本设备上为两者计时：实测的交叉点会随各方法每次浮点运算的速度而移动。`,
    tableFlops: '各方法在各 n 下的浮点运算数',
    modelExact: '浮点运算模型，精确（4n²d，按其实测速率）',
    modelPerformer: '浮点运算模型，Performer（8nm′d，按其实测速率）',
    timeTitle: '单个注意力头的时间与序列长度 n（双对数）',
    bytesTitle: '分配的 GPU 内存与 n（双对数）',
    bytesTitleCpu: 'CPU 对照实现的数组内存与 n（双对数）',
    gflopsTitle: '吞吐量与 n：按浮点运算模型计的 GFLOP/s',
    xN: '序列长度 n',
    yMs: '时间（毫秒）',
    yBytes: '字节',
    yGflops: '每秒十亿次浮点运算（GFLOP/s）',
    tableTime: '各方法在各 n 下的中位时间',
    tableBytes: '各方法在各 n 下分配的字节数',
    tableGflops: '各方法在各 n 下的 GFLOP/s',
    markMeasured: (n: string) => `实测交叉点 ≈ ${n}`,
    markModel: (n: string) => `浮点运算模型 ≈ ${n}`,
    crossover: '实测交叉点 n（Performer 快于精确注意力）',
    crossoverModel: '浮点运算模型的交叉点（2m′ · R_精确 / R_Performer）',
    crossoverBelow: (n: string) => `< ${n}`,
    crossoverAbove: (n: string) => `> ${n}`,
    gflopsExact: 'GFLOP/s，精确（最大 n）',
    gflopsPerformer: 'GFLOP/s，Performer 双向（最大 n）',
    gflopsCausal: 'GFLOP/s，Performer 因果（最大 n）',
    maxN: (what: string) => `最大 n，${what}`,
    sweepNote: (d: number, m: number) =>
      `单个注意力头，d = ${d}，m = ${m} 个正随机特征（m′ = m），随机高斯输入；与本页其余部分使用同一套内核。`,
    stops: '各方法停在何处',
    stopBudget: (what: string, n: string, ms: string) => `${what}：预测 n = ${n} 每次运行需 ${ms}，超出其预算份额。`,
    stopRange: (what: string, n: string) => `${what}：已到范围终点 n = ${n}。`,
    stopError: (what: string, n: string, msg: string) => `${what}：在 n = ${n} 处失败——${msg}`,
    downloadAll: '下载全部结果（CSV）',
    liveNote: '测量中——每测完一个点即显示。',
    layerTitle: '一个 Transformer 层',
    layerLead: (D: number, h: number, f: number) =>
      `博客中的计时针对整个模型。此视图按同样的设置测一个层——Q、K、V、O 投影（d_model = ${D}，${h} 个头）、逐头注意力，以及前馈块（d_ff = ${f}，ReLU）——使用本页的分块 WGSL 矩阵乘法内核，注意力分别为精确、Performer 或伪注意力。层归一化与偏置略去（各为 O(n·d_model)）。越过交叉点后，Performer 层逼近伪注意力层：注意力不再是主要开销。`,
    layerCpu: (D: number, h: number, f: number) => `在 CPU 回退路径上层更小：d_model = ${D}，${h} 个头，d_ff = ${f}。`,
    layerTimeTitle: '一个 Transformer 层的时间与 n（双对数）',
    layerRatioTitle: '层时间 ÷ 伪注意力层时间（1 表示注意力不花时间）',
    yRatio: '时间 ÷ 伪注意力层',
    tableLayer: '各注意力类型在各 n 下的层时间',
    tableRatio: '相对于伪注意力层的层时间',
    partsTitle: '一个层的时间花在哪里（三者都测到的最大 n）',
    parts: { projections: 'Q、K、V、O 投影', attention: '注意力', ffn: '前馈' },
    partsTable: '各层组件的时间',
    partsNone: '按组件拆分需要 GPU 时间戳（或 CPU 路径）；该设备只报告层的总时间。',
    component: '组件',
    layerExactMetric: (n: string) => `精确层 ÷ 伪注意力层（n = ${n}）`,
    layerPerformerMetric: (n: string) => `Performer 层 ÷ 伪注意力层（n = ${n}）`,
    layerHalfMetric: '精确注意力与层内其余部分耗时相同的 n（模型）',
    layerHalfMarker: (n: string) => `模型：精确注意力 = 层内其余部分，n ≈ ${n}`,
    modelLayerExact: '模型，含精确注意力的层（a·n + c·n²，按实测速率）',
    modelLayerPerformer: '模型，含 Performer 注意力的层（a·n + c·n，按实测速率）',
    layerModelNote:
      '点线：按本次实测速率外推的层时间——投影与前馈随 n 线性增长，取伪注意力层最大测点的速率；精确注意力（二次）与 Performer 注意力（线性）按层的各个头计算，取上方注意力测速在其最大 n 处达到的 GFLOP/s。它延伸实测点，而不取代它们。',
    notRun: '本次运行未测层（勾选上方选项后再次运行）。',
  },
  beyond: {
    title: '超越 Performer',
    learnedNote:
      '可学习的 Hedgehog 映射不在这些扫描中：它的 W 必须先针对当前注意力头拟合。它的拟合过程，以及它在拟合序列和留出序列上与同样 m′ 的随机特征相比的误差，见特征映射面板（选择 φ = Hedgehog）。',
    lead: '本页的每一种特征映射，以及在每一种投影下的正随机特征，都作用于同一组 Q 和 K：A 的误差随特征维数 m′（每个估计量付出的内存与计算）的变化、随范数尺度 s（softmax 变得集中时哪些估计量还能跟上）的变化，以及随其核函数在本机当前后端、当前 n 下实际耗时的变化——这正是实践者真正据以取舍的权衡。',
    mapsTitle: '参与比较的估计量',
    colMap: '估计量',
    colKind: '类型',
    colFormula: '特征映射 φ',
    colDim: 'm′',
    colSource: '来源',
    family: { random: '随机（对种子取平均）', deterministic: '确定性', learned: '学习得到（拟合的 W）' } as Record<
      MapFamily,
      string
    >,
    variant: (map: string, proj: string) => `${map}，${proj}`,
    projectionRow: (proj: string) => `W 的行取${proj}`,
    dimTitle: 'A 的误差随特征维数 m′ 的变化',
    xDim: '特征维数 m′（对数）',
    yErr: '相对误差 ‖Â − A‖_F / ‖A‖_F',
    dimNote: (seeds: number, rows: number, n: number) =>
      `随机估计量：对 ${seeds} 个特征种子取平均，色带从最小到最大的一次抽样；确定性映射没有 W，各为一个点（m′ = d）。在前 ${fmtInt(n)} 个键上均匀抽取 ${rows} 个查询行。`,
    tableDim: '各估计量 A 的误差随 m′ 的变化',
    scaleTitle: 'A 的误差随范数尺度 s 的变化：哪些估计量经得起集中',
    xScale: '范数尺度 s（q、k 元素的标准差）',
    scaleNote: (m: number, seeds: number) =>
      `m = ${m}；随机估计量取 ${seeds} 个特征种子的平均与范围。s 增大时 softmax 集中到少数几个键上；误差保持平稳的估计量能跟上，误差攀升的则不能（三角特征最先失效：其方差按 exp(‖x‖²) 增长）。`,
    tableScale: '各估计量 A 的误差随范数尺度的变化',
    timeTitle: (n: number) => `n = ${fmtInt(n)} 时误差与实测耗时`,
    xTime: '估计量核函数的耗时，毫秒（中位数，对数）',
    yErrFull: '完整 n 上 A 的相对误差（一次抽样）',
    timeNote: (backend: string, source: string, repeats: number) =>
      `测量于${backend}：每个估计量先预热运行一次，再取 ${repeats} 次计时运行中其特征核与线性注意力核耗时的中位数（${source}）。误差取自预热运行，覆盖全部 n 行。耗时取决于本机和本浏览器；请在估计量之间比较，而不要与其他机器比较。`,
    backendGpu: (adapter: string) => ` WebGPU（${adapter}）上的 WGSL 核函数`,
    backendCpu: '引擎 worker 中的 CPU 对应实现（此处没有 WebGPU）',
    sourceTimestamp: 'GPU 时间戳查询',
    sourceWall: '每个核函数前后的挂钟时间',
    exactLine: (ms: string) => `精确 softmax：${ms}`,
    tableTime: '各估计量 A 的误差与耗时',
    noErrorA: (n: number) => `n 大于 ${fmtInt(n)} 时显示的是输出的误差（跳过了稠密的逐行统计）。`,
    best: (name: string, m: number) => `m = ${m} 时 A 的误差最小者：${name}`,
    errorAt: (name: string) => `${name}，A 的误差`,
    timeOf: (name: string) => `${name}，毫秒`,
    fastest: '最快估计量，毫秒',
    refsHeading: '各估计量的出处',
    offChart: (names: string, cap: number) => `超过 ${cap}、画在图外（数值见数据表）：${names}。`,
  },
  training: trainingZh,
  trained: trainedZh,
};
