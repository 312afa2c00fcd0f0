/**
 * Every user-visible Simplified Chinese string, same shape as en.ts. Math, units and proper names
 * stay as they are.
 */
import { en, type Strings } from './en';

export const zh: Strings = {
  ...en,
  embedding: {
    open: '嵌入',
    openHint: (panel: string) => `把“${panel}”嵌入网页`,
    openHintAll: '把本页的一幅图嵌入网页',
    dialogTitle: '把图嵌入你的网页',
    dialogLead:
      '把这段 HTML 粘贴到你的网页中。读者滚动到附近时框架才加载，只在出现在屏幕上时计算，并自动调整为内容的高度；脚本只接受来自本解释器源（origin）的尺寸消息。图的初始设置就是你现在看到的设置。',
    panel: '图',
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
};
