import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

const UploadDialog = lazy(() => import("./upload-dialog"));

const UploadDialogContext = createContext<{ open: () => void } | null>(null);

/** The header's New Model button opens the Upload dialog maximised (SPEC §2). */
export function UploadDialogProvider({ children }: { children: ReactNode }) {
  const [visible, setVisible] = useState(false);
  const open = useCallback(() => setVisible(true), []);
  const value = useMemo(() => ({ open }), [open]);
  return (
    <UploadDialogContext.Provider value={value}>
      {children}
      {visible ? (
        <Suspense fallback={null}>
          <UploadDialog visible={visible} onHide={() => setVisible(false)} />
        </Suspense>
      ) : null}
    </UploadDialogContext.Provider>
  );
}

export function useUploadDialog() {
  const value = useContext(UploadDialogContext);
  if (!value) throw new Error("useUploadDialog must be used inside <UploadDialogProvider>");
  return value;
}
