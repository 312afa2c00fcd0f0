/**
 * Page layout: header (title, backend badge, theme), messages, controls beside the main comparison,
 * then the four concept panels. With `?embed=<panel>` only that panel is rendered (for iframes,
 * see ./Embed.tsx); `?hide=a,b` leaves panels out.
 */
import { useEffect, type ReactNode } from 'react';
import { Controls } from '../controls/Controls';
import { UploadControls } from '../controls/UploadControls';
import { TrainedHeads } from '../controls/TrainedHeads';
import { NoticeLine } from '../ui/NoticeLine';
import { ComputeStatus } from '../panels/ComputeStatus';
import { BeyondPanel } from '../panels/BeyondPanel';
import { ErrorPanel } from '../panels/ErrorPanel';
import { FeatureMapPanel } from '../panels/FeatureMapPanel';
import { MainComparison } from '../panels/MainComparison';
import { RankPanel } from '../panels/RankPanel';
import { SparsityPanel } from '../panels/SparsityPanel';
import { Presentation, PresentButton, usePresentShortcut } from '../present/Slides';
import { SpeedPanel } from '../panels/SpeedPanel';
import { TrainingPanel } from '../panels/TrainingPanel';
import { useActions, useStore } from '../store/react';
import { PANEL_IDS, THEMES, type Notice, type PanelId } from '../store/store';
import { AllPanelsHidden, Embed } from './Embed';
import { EmbedButton } from '../ui/EmbedDialog';
import { ENDONYMS, LanguageSwitch, useDocumentLanguage } from './LanguageSwitch';
import { SiteFooter } from './SiteFooter';
import { useHashLanding } from './hash-landing';
import { useStrings } from '../ui/strings';

const PANELS: Record<PanelId, () => ReactNode> = {
  main: () => <MainComparison />,
  error: () => <ErrorPanel />,
  sparsity: () => <SparsityPanel />,
  rank: () => <RankPanel />,
  'feature-maps': () => <FeatureMapPanel />,
  speed: () => <SpeedPanel />,
  beyond: () => <BeyondPanel />,
  training: () => <TrainingPanel />,
};

/**
 * Which backend computes. While WebGPU compiles its pipelines the CPU stand-in computes and the
 * badge says so (data-value "warming"); data-value is "webgpu" or "cpu" once the backend settled.
 */
function BackendBadge() {
  const strings = useStrings();
  const t = strings.app;
  const info = useStore((s) => s.backend.info);
  const warming = useStore((s) => s.backend.warming ?? false);
  if (warming && info) {
    return (
      <div
        className="badge backend-warming"
        data-metric="backend"
        data-value="warming"
        title={strings.firstscreen.badgeWarmingTitle}
        role="status"
      >
        {strings.firstscreen.badgeWarming}
      </div>
    );
  }
  const text = !info
    ? t.backendPending
    : info.kind === 'webgpu'
      ? t.backendWebgpu(info.adapter)
      : t.backendCpu(info.reason);
  return (
    <div
      className={`badge backend-${info?.kind ?? 'pending'}`}
      data-metric="backend"
      data-value={info?.kind ?? ''}
      title={t.backendLabel}
      role="status"
    >
      {text}
    </div>
  );
}

function ThemeSwitch() {
  const t = useStrings().app;
  const theme = useStore((s) => s.ui.theme);
  const actions = useActions();
  return (
    <label className="theme-switch">
      {t.theme}{' '}
      <select value={theme} onChange={(e) => actions.setUi('theme', e.target.value as (typeof THEMES)[number])}>
        {THEMES.map((th) => (
          <option key={th} value={th}>
            {t.themes[th]}
          </option>
        ))}
      </select>
    </label>
  );
}

function noticeText(t: ReturnType<typeof useStrings>, n: Notice): string {
  switch (n.code) {
    case 'param-rejected':
      return t.notices.rejected(n.source, n.key, n.raw, n.reason);
    case 'param-clamped':
      return t.notices.clamped(n.key, n.raw, n.to);
    case 'backend-changed':
      return t.notices.backendChanged(n.why);
    case 'lang-unavailable':
      return t.notices.langUnavailable(ENDONYMS[n.lang]);
    case 'upload-not-in-link':
      return t.upload.notInLink;
    case 'upload-locked':
      return t.upload.locked(n.key, n.trained === true);
    case 'trained-failed':
      return t.trained.failed(t.errors.codes[n.errorCode] ?? t.errors.codes.internal, n.message);
    case 'trained-text-rejected':
      return t.trained.textRejected(n.source, n.problems);
  }
}

/** The page's messages; `except`: a kind shown where it arose instead (typed text's refusal, at the text box). */
function Notices({ except }: { except?: Notice['code'] }) {
  const t = useStrings();
  const all = useStore((s) => s.notices);
  const notices = except ? all.filter((n) => n.code !== except) : all;
  if (!notices.length) return null;
  return (
    <div className="notices" role="alert" aria-label={t.app.notices}>
      {notices.map((n) => (
        <NoticeLine key={n.id} notice={n} text={noticeText(t, n)} />
      ))}
    </div>
  );
}

function useThemeAttribute() {
  const theme = useStore((s) => s.ui.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'auto') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
  }, [theme]);
}

export function App() {
  const t = useStrings();
  const embed = useStore((s) => s.ui.embed);
  const hidden = useStore((s) => s.ui.hidden);
  const embedUnknown = useStore((s) => s.ui.embedUnknown);
  const trained = useStore((s) => s.upload.active?.trained !== undefined);
  useThemeAttribute();
  useDocumentLanguage();
  const present = useStore((s) => s.ui.present) && !embed;
  usePresentShortcut(!embed && !present);
  useHashLanding(!embed && embedUnknown === null && !present);
  if (present) return <Presentation notices={<Notices />} />;

  if (embed || embedUnknown !== null) return <Embed panels={PANELS} notices={<Notices />} badge={<BackendBadge />} />;

  const show = (id: PanelId) => !hidden.includes(id);
  const picker = trained && show('main');
  return (
    <div className="app">
      <a className="skip" href="#panel-main">
        {t.app.skip}
      </a>
      <header className="app-header">
        <div>
          <h1>{t.app.title}</h1>
          <p className="subtitle">{t.app.subtitle}</p>
        </div>
        <div className="header-side">
          <BackendBadge />
          <LanguageSwitch />
          <ThemeSwitch />
          <EmbedButton />
          <PresentButton />
        </div>
      </header>
      <Notices except={picker ? 'trained-text-rejected' : undefined} />
      <div className="layout">
        <aside className="sidebar">
          <Controls />
          <UploadControls />
          {!show('main') && <ComputeStatus />}
        </aside>
        <main className="content">
          {show('main') && <TrainedHeads />}
          {show('main') && <MainComparison />}
          {show('error') && <ErrorPanel />}
          {show('sparsity') && <SparsityPanel />}
          {show('rank') && <RankPanel />}
          {show('feature-maps') && <FeatureMapPanel />}
          {show('speed') && <SpeedPanel />}
          {show('beyond') && <BeyondPanel />}
          {show('training') && <TrainingPanel />}
          {PANEL_IDS.every((id) => !show(id)) && <AllPanelsHidden />}
        </main>
      </div>
      <SiteFooter />
    </div>
  );
}
