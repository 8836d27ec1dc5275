import { Toast, type ToastMessage } from "primereact/toast";
import { createContext, useCallback, useContext, useMemo, useRef, type ReactNode } from "react";

/** SPEC §3/§4 toasts: severities incl. secondary/contrast, 5000 ms life, top-right, pause on hover. */
export const TOAST_LIFE_MS = 5000;

export type ToastInput = {
  severity: "info" | "success" | "warn" | "error" | "secondary" | "contrast";
  summary?: string;
  detail?: string;
  life?: number;
  closable?: boolean;
  group?: string;
  id?: string;
};

const ToastContext = createContext<((message: ToastInput) => void) | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const toast = useRef<Toast>(null);
  const show = useCallback((message: ToastInput) => {
    toast.current?.show({ life: TOAST_LIFE_MS, closable: true, ...message } as ToastMessage);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      <Toast ref={toast} position="top-right" onMouseEnter={() => undefined} />
      {children}
    </ToastContext.Provider>
  );
}

export function useToast() {
  const show = useContext(ToastContext);
  if (!show) throw new Error("useToast must be used inside <ToastProvider>");
  return show;
}
