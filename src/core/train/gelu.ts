/**
 * GELU, tanh approximation (GPT-2's): GELU(x) = ½x(1 + tanh(u)), u = √(2/π)(x + 0.044715x³).
 * d/dx = ½(1 + tanh u) + ½x(1 − tanh² u) · √(2/π)(1 + 3·0.044715x²).
 */
import { like, type Arr } from './arr';

const K = Math.sqrt(2 / Math.PI);
const A = 0.044715;

export function geluForward(x: Arr): Arr {
  const y = like(x, x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    y[i] = 0.5 * v * (1 + Math.tanh(K * (v + A * v * v * v)));
  }
  return y;
}

export function geluBackward(x: Arr, dy: Arr): Arr {
  const dx = like(x, x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    const t = Math.tanh(K * (v + A * v * v * v));
    dx[i] = dy[i] * (0.5 * (1 + t) + 0.5 * v * (1 - t * t) * K * (1 + 3 * A * v * v));
  }
  return dx;
}
