export function SparsityPanel() {
  return null;
}
