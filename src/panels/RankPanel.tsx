export function RankPanel() {
  return null;
}
