import { describe, expect, it } from 'vitest';
import { en } from './en';
import { zh } from './zh';
import { loadedStrings, loadStrings } from '.';

/**
 * Latin words that may stay untranslated: math symbols and operators, units, proper names, the
 * names of the methods. A zh string may equal its English counterpart only when every Latin word
 * of two or more letters in it (TeX commands removed) is on this list.
 */
const UNTRANSLATED_OK = new Set(
  [
    // names and methods
    'performer',
    'favor',
    'webgpu',
    'softmax',
    'relu',
    'elu',
    'gpu',
    'cpu',
    'transformer',
    'kexue',
    'fm',
    'arxiv',
    'iclr',
    'icml',
    'wacv',
    'krzysztof',
    'choromanski',
    'lucy',
    'colwell',
    'angelos',
    'katharopoulos',
    'zhuoran',
    'shen',
    // math operators and symbols as written in formulas
    'exp',
    'log',
    'max',
    'min',
    'sin',
    'cos',
    'kl',
    'mse',
    'sm',
    'trig',
    'out',
    'exact',
    'eff',
    'rank',
    'model',
    'top',
    'nats',
    'ms',
    // file formats
    'png',
    'svg',
    'csv',
    'json',
    'npy',
    'float',
  ].map((w) => w.toLowerCase()),
);

/**
 * Words of a string that would need translating: runs of ≥ 3 Latin letters (shorter ones are
 * symbols such as QK, Wx, KL), not subscripts (A_ij), not TeX commands, not on the allowlist.
 */
function foreignWords(s: string): string[] {
  const text = s
    .replace(/\\(begin|end)\{[a-z*]+\}/g, ' ')
    .replace(/\\[a-zA-Z]+/g, ' ')
    .replace(/_\{?[A-Za-z]+/g, ' ');
  return (text.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !UNTRANSLATED_OK.has(w.toLowerCase()));
}

type Leaf = { path: string; en: unknown; zh: unknown };

function leaves(a: unknown, b: unknown, path = ''): Leaf[] {
  if (typeof a === 'object' && a !== null) {
    return Object.keys(a).flatMap((k) =>
      leaves(
        (a as Record<string, unknown>)[k],
        typeof b === 'object' && b !== null ? (b as Record<string, unknown>)[k] : undefined,
        path ? `${path}.${k}` : k,
      ),
    );
  }
  return [{ path, en: a, zh: b }];
}

/** Plausible arguments for a string function: numbers work for counts, sizes and most names. */
const SAMPLE_ARGS = [3, 5, 7, 11, 13, 17];

describe('zh strings', () => {
  const all = leaves(en, zh);

  it('both languages are registered: English loaded with the page, Chinese loaded when asked for', async () => {
    expect(loadedStrings('en')).toBe(en);
    expect(loadedStrings('zh')).toBeUndefined();
    expect(await loadStrings('zh')).toBe(zh);
    expect(loadedStrings('zh')).toBe(zh);
  });

  it('every key of en exists in zh with the same type (functions are functions of the same arity)', () => {
    const problems = all
      .filter(
        (l) =>
          typeof l.en !== typeof l.zh ||
          (typeof l.en === 'function' && (l.en as () => string).length !== (l.zh as () => string).length),
      )
      .map((l) => `${l.path}: en ${typeof l.en}, zh ${typeof l.zh}`);
    expect(problems).toEqual([]);
    // and zh has no keys en lacks (a stale or misspelled key would never be shown)
    expect(
      leaves(zh, en)
        .filter((l) => l.zh === undefined)
        .map((l) => l.path),
    ).toEqual([]);
  });

  it('no zh string equals its English counterpart unless it is math or names only', () => {
    const same: string[] = [];
    for (const l of all) {
      if (typeof l.en === 'string') {
        if (l.en === l.zh && foreignWords(l.en).length) same.push(`${l.path}: ${l.en}`);
      } else if (typeof l.en === 'function') {
        let a: unknown;
        let b: unknown;
        try {
          a = (l.en as (...x: unknown[]) => unknown)(...SAMPLE_ARGS);
          b = (l.zh as (...x: unknown[]) => unknown)(...SAMPLE_ARGS);
        } catch {
          continue; // arguments of another kind (e.g. a reason code): covered by the types
        }
        if (typeof a === 'string' && a === b && foreignWords(a).length) same.push(`${l.path}(…): ${a}`);
      }
    }
    expect(same).toEqual([]);
  });

  it('zh strings contain Chinese characters or punctuation wherever the English has words to translate', () => {
    const bare = all
      .filter(
        (l) =>
          typeof l.zh === 'string' &&
          foreignWords(l.en as string).length &&
          !/[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/.test(l.zh as string),
      )
      .map((l) => `${l.path}: ${l.zh}`);
    expect(bare).toEqual([]);
  });

  it('interpolating functions put their arguments into the Chinese text', () => {
    expect(zh.charts.tableTruncated(1000, 4096)).toBe('共 4,096 行，显示前 1,000 行。');
    expect(zh.main.rowTitle(12, true)).toBe('查询行 i = 12（已固定）');
    expect(zh.notices.rejected('url', 'lang', 'xx', 'not-an-option')).toBe(
      '已忽略 URL 参数 lang = “xx”：不是可选值之一——必须是 en、zh 之一。保留原来的值。',
    );
    expect(zh.notices.rejected('url', 'n', '0', 'out-of-range')).toContain('必须是1 到 65,536 之间的整数');
    expect(zh.notices.clamped('m', '5000', 1024)).toBe('m = 5000 超出允许范围（1 到 1,024 之间的整数），改用 1,024。');
  });

  it('no stray space between two Han characters where a name is interpolated', () => {
    expect(zh.sparsity.truncApprox(zh.names.maps.positive)).toBe('截断后的正值 Â');
    expect(zh.sparsity.truncApprox(zh.names.maps.relu)).toBe('截断后的 ReLU Â');
    expect(zh.main.noView('1,024', zh.main.onCpu)).toContain('在 CPU 后备路径上');
  });

  it('known backend reasons are translated, browser details kept', () => {
    expect(zh.app.backendCpu('this browser exposes no WebGPU (navigator.gpu is missing)')).toBe(
      'CPU 后备路径：此浏览器未提供 WebGPU（navigator.gpu 不存在）',
    );
    expect(
      zh.app.backendCpu('GPU device lost (destroyed: gone); WebGPU is present but no GPU adapter is available'),
    ).toBe('CPU 后备路径：GPU 设备丢失（destroyed: gone）；浏览器支持 WebGPU，但没有可用的 GPU 适配器');
    expect(zh.notices.backendChanged('requestDevice failed: boom')).toBe('计算后端已切换：requestDevice 失败：boom。');
  });

  it('no product text names the sources by their internal file labels ("seed" + number)', () => {
    const seeds = [...leaves(en, en), ...leaves(zh, zh)]
      .filter((l) => typeof l.en === 'string' && /seed 00\d/i.test(l.en as string))
      .map((l) => l.path);
    expect(seeds).toEqual([]);
  });
});
