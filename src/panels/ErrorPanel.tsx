export function ErrorPanel() {
  return null;
}
