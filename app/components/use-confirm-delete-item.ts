import { confirmDialog } from "primereact/confirmdialog";
import { useCallback } from "react";
import { useAuth } from "~/auth/auth-provider";
import { useToast } from "~/components/toast-provider";

/**
 * Asks before deleting a model (its files go for good), deletes it through the API and says how it
 * went; `onDeleted` runs after a successful delete (reload a list, leave the model's page). The page
 * renders PrimeReact's <ConfirmDialog />.
 */
export function useConfirmDeleteItem(onDeleted: () => void) {
  const { api } = useAuth();
  const toast = useToast();
  return useCallback(
    (item: { id: string; name: string }) =>
      confirmDialog({
        header: "Delete model",
        message: `Delete "${item.name}"? Its files are removed for good.`,
        acceptLabel: "Delete",
        rejectLabel: "Cancel",
        acceptClassName: "p-button-danger",
        accept: async () => {
          try {
            await api(`/item/${item.id}`, { method: "DELETE" });
            toast({ severity: "success", summary: "Deleted", detail: `"${item.name}" was deleted.` });
            onDeleted();
          } catch (error) {
            toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
          }
        },
      }),
    [api, onDeleted, toast],
  );
}
