/**
 * Every user-visible Simplified Chinese string, same shape as en.ts. Math, units and proper names
 * stay as they are.
 */
import { en, type Strings } from './en';

export const zh: Strings = {
  ...en,
  firstscreen: {
    badgeWarming: 'CPU（WebGPU 启动中…）',
    badgeWarmingTitle: 'WebGPU 正在编译计算管线，期间由 CPU 计算图表；WebGPU 一旦就绪，图表会自动在 WebGPU 上重新计算。',
    backendName: { webgpu: 'WebGPU', cpu: 'CPU' },
    computingOn: (backend: string) => `正在 ${backend} 上计算…`,
    estimate: (est: string, elapsed: string) => `预计约 ${est} · 已用 ${elapsed}`,
    elapsed: (elapsed: string) => `已用 ${elapsed}`,
    longRun: (params: string, est: string, backend: string) =>
      `这次计算（${params}）预计在 ${backend} 上需要约 ${est}。完成之前下方图表保持不变；点击“取消”可停止计算。`,
    progressLabel: (est: string) => `已用时间与预计的 ${est} 之比`,
    cancel: '取消',
    cancelledReverted: (params: string, est: string) => `已取消 ${params} 的计算（预计约 ${est}）。控件已恢复为当前所示结果的参数。`,
    cancelledNothing: (params: string, est: string) => `已取消：${params} 尚未计算任何结果（预计约 ${est}）。`,
    computeAnyway: '仍然计算',
    held: (params: string, est: string, backend: string, shown: boolean) =>
      `尚未开始：这次计算（${params}）预计在 ${backend} 上需要约 ${est}。${shown ? '下方图表保持不变。' : '目前尚未计算任何结果。'}`,
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
};
