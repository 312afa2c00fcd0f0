/**
 * Thin React binding of the store: a provider carrying (store, actions, controller) and hooks.
 * Panels read through `useStore(selector)` and act through `useActions()` / `useController()`, so
 * any panel renders on its own given a provider (the full app, an embed, a test).
 */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore as useZustandStore } from 'zustand';
import type { Controller } from './controller';
import type { Actions, AppState, AppStore } from './store';
import type { TrainingController } from './training-controller';

export interface AppContextValue {
  store: AppStore;
  actions: Actions;
  controller: Controller;
  /** the training comparison's controller (absent where nothing trains, e.g. panel tests) */
  training?: TrainingController;
}

const AppContext = createContext<AppContextValue | null>(null);

export function StoreProvider({ value, children }: { value: AppContextValue; children: ReactNode }) {
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>;
}

function useApp(): AppContextValue {
  const v = useContext(AppContext);
  if (!v) throw new Error('StoreProvider is missing above this component');
  return v;
}

/** Subscribe to a slice of the state. Selectors must return stable references (fields, not new objects). */
export function useStore<U>(selector: (s: AppState) => U): U {
  return useZustandStore(useApp().store, selector);
}

export function useActions(): Actions {
  return useApp().actions;
}

export function useController(): Controller {
  return useApp().controller;
}

export function useAppStore(): AppStore {
  return useApp().store;
}

/** The training controller; null when the provider has none. */
export function useTrainingController(): TrainingController | null {
  return useApp().training ?? null;
}
