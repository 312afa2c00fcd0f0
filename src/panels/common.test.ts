/**
 * withDeferredParams' contract (common.tsx): on a parameter change only the shell renders at once;
 * the memoized body renders once more, with the new parameters, in a later (deferred) render.
 *
 * No DOM environment is a dependency here, so react-dom/client renders into a stand-in container:
 * the tree renders no host elements (the body returns null and logs its renders), which leaves
 * React only the container's event-listener registration and its tag name to ask for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, createElement, Profiler, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { withDeferredParams } from './common';
import { StoreProvider, useStore } from '../store/react';
import { createActions, createAppStore } from '../store/store';
import type { AttentionParams } from '../core/types';
import type { Controller } from '../store/controller';

const g = globalThis as Record<string, unknown>;
const saved = { act: g.IS_REACT_ACT_ENVIRONMENT, window: g.window };
beforeAll(() => {
  g.IS_REACT_ACT_ENVIRONMENT = true;
  // react-dom reads window.event for an update's priority and window.HTMLIFrameElement at commit
  g.window ??= { event: undefined, HTMLIFrameElement: class {} };
});
afterAll(() => {
  g.IS_REACT_ACT_ENVIRONMENT = saved.act;
  g.window = saved.window;
});

function standInContainer(): Element {
  const noop = () => {};
  const doc = { addEventListener: noop, removeEventListener: noop };
  return {
    nodeType: 1,
    nodeName: 'DIV',
    tagName: 'DIV',
    ownerDocument: doc,
    addEventListener: noop,
    removeEventListener: noop,
  } as unknown as Element;
}

type Render = { who: 'shell-sibling' | 'body'; m: number; commit: number };

function setup() {
  const store = createAppStore();
  const actions = createActions(store);
  const log: Render[] = [];
  let commits = 0;
  const Body = ({ params }: { params: AttentionParams }): ReactNode => {
    log.push({ who: 'body', m: params.m, commit: commits });
    return null;
  };
  const Panel = withDeferredParams('TestPanel', Body);
  // reads the parameters urgently, as the shell does: marks the urgent render
  const Sibling = (): ReactNode => {
    log.push({ who: 'shell-sibling', m: useStore((s) => s.params.m), commit: commits });
    return null;
  };
  const tree = createElement(
    StoreProvider,
    { value: { store, actions, controller: {} as Controller }, children: null },
    createElement(
      Profiler,
      { id: 'tree', onRender: () => void commits++ },
      createElement(Sibling),
      createElement(Panel),
    ),
  );
  return { actions, log, tree, Panel };
}

describe('withDeferredParams', () => {
  it('renders the body with the new parameters once, in a render after the urgent one, and not for other state', async () => {
    const { actions, log, tree, Panel } = setup();
    expect(Panel.displayName).toBe('TestPanel');
    let root: Root | null = null;
    await act(async () => {
      root = createRoot(standInContainer());
      root.render(tree);
    });
    expect(log.filter((r) => r.who === 'body').map((r) => r.m)).toEqual([64]);
    log.length = 0;

    await act(async () => {
      actions.setParam('m', 32);
    });
    const sibling = log.filter((r) => r.who === 'shell-sibling' && r.m === 32);
    const body = log.filter((r) => r.who === 'body');
    expect(sibling.length).toBeGreaterThan(0);
    // memoized: the urgent render (deferred value still m = 64) does not re-render the body
    expect(body.map((r) => r.m)).toEqual([32]);
    // deferred: the body's render belongs to a later commit than the urgent one
    expect(body[0]!.commit).toBeGreaterThan(sibling[0]!.commit);

    log.length = 0;
    await act(async () => {
      actions.setUi('rankTol', 1e-3);
    });
    expect(log.filter((r) => r.who === 'body')).toEqual([]);
    await act(async () => root!.unmount());
  });
});
