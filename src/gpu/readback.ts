/** Copy a GPU buffer's first `bytes` bytes to the CPU as a Float32Array. */
export async function readFloats(
  device: GPUDevice,
  src: GPUBuffer,
  floats: number,
  offsetFloats = 0,
): Promise<Float32Array> {
  const bytes = floats * 4;
  if (bytes === 0) return new Float32Array(0);
  const staging = device.createBuffer({
    label: `readback:${src.label}`,
    size: bytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  try {
    const enc = device.createCommandEncoder({ label: 'readback' });
    enc.copyBufferToBuffer(src, offsetFloats * 4, staging, 0, bytes);
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    return new Float32Array(staging.getMappedRange().slice(0));
  } finally {
    // Staging buffers are short-lived by design: mapping state makes pooling them error-prone.
    staging.destroy();
  }
}
