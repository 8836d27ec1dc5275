import { useRevalidator } from "@remix-run/react";
import { useCallback, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { useToast } from "~/components/toast-provider";

/**
 * Runs an admin change through the /v1 admin API: one at a time, a success toast, SPEC's 'Error!'
 * toast with the API's message on failure, and the page's data reloaded afterwards.
 * Resolves to whether the change succeeded.
 */
export function useAdminAction() {
  const { api } = useAuth();
  const toast = useToast();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);

  const run = useCallback(
    async (change: (client: typeof api) => Promise<unknown>, success?: string): Promise<boolean> => {
      setBusy(true);
      try {
        await change(api);
        if (success) toast({ severity: "success", summary: "Saved", detail: success });
        return true;
      } catch (error) {
        toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
        return false;
      } finally {
        setBusy(false);
        revalidator.revalidate();
      }
    },
    [api, toast, revalidator],
  );
  return { run, busy };
}
