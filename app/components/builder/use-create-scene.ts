import { useNavigate } from "@remix-run/react";
import { useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { useToast } from "~/components/toast-provider";

/** POST /v1/scene, then the editor of the new scene (a toast says why when it fails). */
export function useCreateScene() {
  const { api } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const create = async (body: { name?: string; item_ids?: string[] }, { arrange = false } = {}) => {
    setCreating(true);
    try {
      const { item_id } = await api<{ item_id: string }>("/scene", { method: "POST", body });
      navigate(`/builder/${item_id}${arrange ? "?arrange=all" : ""}`);
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
      setCreating(false);
    }
  };
  return { creating, create };
}
