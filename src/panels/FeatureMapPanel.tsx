export function FeatureMapPanel() {
  return null;
}
