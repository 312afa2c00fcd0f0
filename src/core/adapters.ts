/**
 * Adapters whose "GPU" compute runs on the CPU (SwiftShader, the fallback adapter, llvmpipe, WARP):
 * there the analyses form φ with the twins (src/gpu/analysis-backend.ts) and the dense analyses stay
 * on the CPU pool (src/engine/engine-client.ts), where their twins are faster. Pure, so the main
 * thread's client can ask it without loading any GPU code.
 */
export function isSoftwareAdapter(name: string): boolean {
  return /swiftshader|fallback|llvmpipe|warp/i.test(name);
}
