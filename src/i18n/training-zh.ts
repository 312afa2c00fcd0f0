/** 训练面板的中文字符串（与 training-en.ts 同形）。 */
import { fmt, fmtInt } from '../charts/format';
import { SETUP_LIMITS, LR_RANGE, MAX_KINDS, MIN_KINDS, TRAIN_KINDS } from '../engine/training-setup';
import type { trainingEn } from './training-en';

const duration = (ms: number) =>
  ms < 1000
    ? `${Math.round(ms)} 毫秒`
    : ms < 60_000
      ? `${(ms / 1000).toFixed(1)} 秒`
      : `${Math.floor(ms / 60_000)} 分 ${Math.round((ms % 60_000) / 1000)} 秒`;

const RULES: Record<string, string> = {
  train: '训练设置过长',
  task: '必须是 mqar、lm、mlm、local 之一',
  kinds: `必须是 ${MIN_KINDS}–${MAX_KINDS} 种不同的注意力（${TRAIN_KINDS.join('、')}），以 + 分隔（迁移实验中为 1–${MAX_KINDS} 种特征映射，不含局部窗口）`,
  lr: `必须是 auto，或每种注意力一个学习率（${LR_RANGE[0]} 到 ${LR_RANGE[1]}），以 + 分隔`,
  mlp: '必须是 1 或 0',
  sweep: '必须是 1 或 0（迁移实验中须为 0）',
  transfer: '必须是 1 或 0',
  conv: '必须是 none、shift、conv3 之一',
  proj: '必须是 orthogonal-chi、orthogonal-sqrtd、iid、simplex 之一',
  h: '必须是能整除 d 的头数（1 到 8）',
  pairs: '必须是 1 到 128 之间的整数，且 3 · 键值对数 ≤ L',
};
const FIELD_NAMES: Record<string, string> = { L: 'seqLen', d: 'dModel' };

export const trainingZh: typeof trainingEn = {
  title: '学习：在浏览器里训练一个小 Transformer',
  lead: '其他图都只看一个注意力矩阵。这里注意力是学出来的：一个小 Transformer 分别用精确 softmax 注意力和线性注意力（几种特征映射）并排训练，数据和种子相同，曲线显示每一种能否学会这个任务。',
  rule: (field: string) => {
    const f = FIELD_NAMES[field] ?? field;
    if (RULES[field]) return RULES[field];
    const lim = (SETUP_LIMITS as Record<string, readonly [number, number]>)[f];
    return lim ? `必须是 ${fmtInt(lim[0])} 到 ${fmtInt(lim[1])} 之间的整数` : '不是可识别的训练设置';
  },
  run: '必须是 1 或 0',
  tasks: {
    mqar: '联想回忆（MQAR）',
    lm: '语言模型（预测下一个词，因果）',
    mlm: '掩码语言模型（双向）',
    local: '局部截断（苏剑林）：加窗与完整线性注意力',
  },
  taskHelp: {
    mqar: '先给出键值对，再给出查询：预测每个被查询的键所存的值（Zoology，Arora 等 2023）。词表 64，而不是 Zoology 的 8192（在浏览器里学得太慢）。准确率只算被查询的值。',
    lm: '在一个小的带种子语料上预测下一个词，因果注意力（苏剑林：这里线性注意力几乎和 softmax 一样好）。',
    mlm: '从两侧预测被掩码的词，双向注意力（苏剑林：这里线性注意力明显变差）。',
    local:
      '掩码语言模型的数据，线性注意力的矩阵只保留对角线附近（|i − j| < 窗口），与完整的线性注意力对比（苏剑林：局部的更好）。',
  },
  task: '任务',
  kinds: '要对比的注意力',
  kindsHelp: `${MIN_KINDS}–${MAX_KINDS} 种，用同样的批次和种子训练`,
  addKind: '添加一种',
  removeKind: (name: string) => `移除 ${name}`,
  kind: (i: number) => `第 ${i + 1} 种`,
  softmax: 'softmax（精确）',
  local: (name: string) => `${name}，局部窗口`,
  sizes: '模型',
  pairs: '键值对数',
  seqLen: '序列长度 L',
  dModel: '宽度 d_model',
  heads: '头数',
  layers: '层数',
  mlp: '注意力后接 MLP',
  shortConv: '注意力之前',
  convs: { none: '无', shift: '词移位（h + w ⊙ h₋₁）', conv3: '短因果卷积（宽 3）' },
  shortConvHelp:
    'Zoology 和 Based 在线性注意力之前加一步“看前一个词”：它在短回忆上的失败很大一部分是缺了这一步，其余才是容量（状态大小与键值对数之比）。',
  m: '特征数 m（FAVOR+、Hedgehog）',
  proj: 'FAVOR+ 投影',
  window: '局部窗口',
  steps: '步数',
  batch: '批大小',
  seeds: '种子数',
  seed: '第一个种子',
  lr: '学习率',
  lrAuto: '自动',
  lrHelp: '这种注意力的学习率；留空：自动（该种注意力调好的默认值）',
  lrOf: (name: string) => `${name} 的学习率`,
  sweep: '学习率扫描（lr/3、lr、3·lr；显示每种的最好一档）',
  start: '训练',
  restart: '重新训练',
  pause: '暂停',
  resume: '继续',
  cancel: '取消',
  idle: '按“训练”开始对比。带 run=1 的本页链接会在打开时自动开始。',
  starting: '正在启动训练器…',
  running: '训练中',
  paused: '已暂停',
  done: (ms: string) => `完成，用时 ${ms}。`,
  cancelled: '已取消。曲线显示到目前为止训练的步数。',
  failed: (msg: string) => `训练失败：${msg}`,
  progress: (done: number, total: number) => `${fmtInt(done)} / ${fmtInt(total)} 步（所有运行）`,
  eta: (ms: number | null) => (ms === null ? '正在估计剩余时间…' : `大约还需 ${duration(ms)}`),
  rate: (gflops: number | null) => (gflops === null ? '' : `${fmt(gflops)} GFLOP/秒`),
  duration,
  onGpu: (device: string) => `在 WebGPU 上训练（${device}）。`,
  onCpu: '在 CPU 孪生实现上训练。',
  reduced:
    'CPU 孪生实现训练一个较小的默认对比（批大小 16、最多 300 步、2 个种子），一两分钟内完成；它的数字不如 WebGPU 默认对比的稳定。',
  runsNote: (runs: number, kinds: number, seeds: number) =>
    `共 ${fmtInt(runs)} 次运行：${kinds} 种注意力 × ${seeds} 个种子，轮流逐步训练。`,
  lossChart: '训练损失随步数变化',
  accChart: '训练准确率随步数变化',
  evalChart: '留出集准确率随步数变化',
  step: '步',
  loss: '损失（交叉熵，奈特）',
  accuracy: '准确率',
  chance: (values: number) => `随机取值的准确率：1/${values}`,
  band: '带：各种子的最小到最大',
  metricLoss: (name: string) => `${name}：损失`,
  metricAcc: (name: string) => `${name}：准确率`,
  metricEval: (name: string) => `${name}：留出集准确率`,
  atStep: (step: number) => `第 ${fmtInt(step)} 步`,
  results: '最终留出集数字（各种子的均值 ± 范围）',
  colKind: '注意力',
  colLr: '学习率',
  colAcc: '留出集准确率',
  colLoss: '留出集损失',
  colSeeds: '种子数',
  best: '最好',
  mapsTitle: '每次运行学会了关注什么',
  mapsLead:
    '每种注意力第一次运行在一个留出样例上的注意力图，层和头在下面选（线性注意力画的是 Â = φ(Q)φ(K)ᵀ 按行归一化，即它实际使用的矩阵）。',
  layer: '层',
  head: '头',
  mapTitle: (name: string, layer: number, head: number) => `${name}，第 ${layer + 1} 层，第 ${head + 1} 头`,
  weights: (name: string) => `${name} 的权重（JSON）`,
  weightsFailed: (msg: string) => `无法读取权重：${msg}`,
  csv: '曲线（CSV）',
  why: {
    mqar: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
      `${best} 回忆出 ${bestAcc} 的被查询值，${worst} 为 ${worstAcc}。回忆需要一行把几乎全部权重放在与查询相同的那个较早的键上：softmax 的指数把分数差放大成这样的尖峰（见稀疏性面板），而线性注意力的矩阵秩至多为 m′（见秩面板）、各行稠密，它固定大小的状态（m′ × d）必须同时存下所有键值对——键值对一多就失败。试试词移位、更宽的 d 或更大的 m。`,
    lm: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
      `下一个词的准确率：${best} ${bestAcc}，${worst} ${worstAcc}。因果语言模型主要需要最近的词，稠密的线性注意力行仍能给它们足够的权重：差距很小，与苏剑林的报告一致。可与掩码模型（MLM 任务）对比。`,
    mlm: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
      `掩码词的准确率：${best} ${bestAcc}，${worst} ${worstAcc}。双向时每一行都看整个序列，线性注意力低秩、稠密的行（见秩面板和稀疏性面板）把它平均模糊了：差距比因果语言模型大，与苏剑林的报告一致。`,
    local: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
      `${best} ${bestAcc}，${worst} ${worstAcc}。把线性注意力截断到局部窗口，使它的行天然稀疏（见稀疏性面板）：模型无法把权重摊到整个序列上，苏剑林发现这正有帮助——代价是不再是线性复杂度。`,
  },
  whyClose: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
    `各种注意力的最终结果相差无几（${best} ${bestAcc}，${worst} ${worstAcc}）：在这个规模和步数下任务还区分不出它们。更多键值对或更长的序列（MQAR）、更少的特征或更多步数会让差距显现；单是词移位就能弥补其中很大一部分。`,
  whyOther: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
    `这里 ${best}（${bestAcc}）胜过 ${worst}（${worstAcc}），与论文的结论不同：只用一个学习率的短训练可能偏向任何一种。先训练更久、增加种子或打开学习率扫描，再看差距。`,
  seriesTitle: '扫描与 LM / MLM 差距',
  seriesLead: '一个系列把上面的对比训练几次，每次改变一处，并保留每次的最终留出集准确率。',
  seriesPairs: '扫描键值对数（2、4、8、16）',
  seriesM: '扫描特征数 m（8、16、32、64）',
  seriesLmMlm: '先 LM，再 MLM（苏剑林的论断）',
  seriesProgress: (k: number, n: number) => `系列中的第 ${k} / ${n} 次对比。`,
  pairsChart: '留出集准确率随键值对数变化',
  mChart: '留出集准确率随特征数 m 变化',
  pairsAxis: '键值对数',
  mAxis: '特征数 m',
  gapTable: '各任务的留出集准确率（括号内为与 softmax 的差距）',
  colTask: '任务',
  rankLink: '秩面板',
  sparsityLink: '稀疏性面板',
  transfer: {
    field: '迁移实验（先训练 softmax，换成特征映射，再微调）',
    fieldHelp:
      '先用精确 softmax 训练，再把每一层的注意力换成下面的每种映射、保留全部权重，然后微调——并与同一映射从头训练对比。',
    kinds: '替换 softmax 的特征映射',
    kindsHelp: '1–4 种映射；每种都从训练好的 softmax 模型微调，并从头训练一次',
    steps: 'softmax 步数',
    tune: '微调步数',
    fit: 'Hedgehog 拟合步数',
    button: '迁移：softmax → FAVOR+ / Hedgehog',
    title: '迁移：训练好的 softmax 模型换成线性注意力',
    lead: 'Performer 博客实验的缩小版：用精确 softmax 训练好的 Transformer，保留权重，把注意力换成特征映射。准确率立刻下降（第 0 步）；微调后恢复得远比从头训练线性模型快。Hedgehog 还可以先把特征映射拟合到每个头的 softmax 注意力（Zhang 等 2024），起点高得多。',
    phase: (phase: 1 | 2) =>
      phase === 1 ? '第一阶段：训练 softmax。' : '第二阶段：微调替换后的模型，并与从头训练的对比。',
    fitOn: (backend: 'cpu' | 'webgpu' | null) =>
      `Hedgehog 的拟合只训练 Wh 和 bh${backend === 'webgpu' ? '，在 WebGPU 上运行' : backend === 'cpu' ? '，在 CPU 孪生实现上运行' : ''}，与本次训练的其余部分相同。`,
    chart: (map: string) => `${map}：替换后与从头训练的留出准确率`,
    roles: { softmax: 'softmax（已训练）', finetune: '替换后微调', scratch: '从头训练', fitted: '先拟合再微调' },
    roles0: { softmax: 'softmax（已训练）', finetune: '替换后', scratch: '初始化时', fitted: '替换并拟合后' },
    step0Dot: (role: string) => `${role}，第 0 步`,
    softmaxLine: (acc: string) => `softmax ${acc}`,
    table: '留出准确率：替换时（第 0 步）与微调后（均值 ± 种子间极差的一半）',
    colMap: '映射',
    colRole: '运行',
    colStep0: '第 0 步',
    colFinal: (steps: number) => `${steps} 步后`,
    softmaxFinal: (acc: string, steps: number) => `softmax 训练 ${steps} 步后：留出准确率 ${acc}。`,
    heads: '训练好的 softmax 头的集中程度（留出集，种子平均）：',
    head: (layer: number, head: number, entropy: string, uniform: string, top: string) =>
      `第 ${layer} 层第 ${head} 头：熵 ${entropy} 奈特（均匀行为 ${uniform}），最大权重 ${top}`,
    favorM: '不微调直接换成 FAVOR+，按特征数 m：',
    favorMItem: (m: number, acc: string) => `m = ${m}：${acc}`,
    fitDone: (map: string, steps: number, before: string, after: string) =>
      `${map} 拟合（${steps} 步）：每行 KL(softmax ‖ ${map}) 从 ${before} 降到 ${after} 奈特。`,
    why: 'FAVOR+ 在第 0 步失败的原因：训练好的头把每行的大部分权重放在少数几个键上（熵低、最大权重大）。FAVOR+ 用正随机特征估计 exp(q·k)，相对误差随 ‖q‖‖k‖ 增长，也就是随头的尖锐程度增长，所以替换后的行被抹平，增加特征也改善得很慢。Hedgehog 拟合后的映射正是为再现这些行而训练的。',
    mapsAt0: '替换时（第 0 步）的注意力：第一个种子，一个留出样例',
    mapsAfter: (steps: number) => `微调 ${steps} 步后的注意力`,
    mapsLead:
      '训练好的 softmax 头，与同一组权重经各特征映射得到的注意力并排：softmax 把一行集中在少数几个键上，FAVOR+ 把它摊开；拟合过的 Hedgehog 能再现它。点击一行可在各映射间比较。',
    csv: '迁移曲线（CSV）',
  },
  slideTitle: '学习：线性注意力能学会回忆吗？',
  slideNote: '在浏览器里实时并排训练 softmax 注意力和两种线性注意力，任务是联想回忆。',
};
