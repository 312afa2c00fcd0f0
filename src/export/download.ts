/** Saves a Blob under a file name through a temporary <a download> (no server round trip, no network). */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // the download has started reading the blob by the next task; keep it a while for slow disks
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
