import { useCallback, useSyncExternalStore } from "react";

/** SPEC §4: dev mode is a boolean, off by default, toggled by the footer button; kept per browser. */
const KEY = "devMode";
const EVENT = "scanroom:dev-mode";

function read(): boolean {
  try {
    return window.localStorage.getItem(KEY) === "true";
  } catch {
    return false;
  }
}

function subscribe(callback: () => void) {
  window.addEventListener(EVENT, callback);
  window.addEventListener("storage", callback);
  return () => {
    window.removeEventListener(EVENT, callback);
    window.removeEventListener("storage", callback);
  };
}

export function useDevMode(): [boolean, () => void] {
  const value = useSyncExternalStore(subscribe, read, () => false);
  const toggle = useCallback(() => {
    window.localStorage.setItem(KEY, String(!read()));
    window.dispatchEvent(new Event(EVENT));
  }, []);
  return [value, toggle];
}
