import { useRevalidator } from "@remix-run/react";
import { Button } from "primereact/button";
import { useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { TurntableDto } from "~/domain/turntable-presenter";
import { useRevalidateWhile } from "./use-revalidate-while";
import { useToast } from "./toast-provider";

/**
 * The model page's turntable (issue 35 item 2): a short video of the model going once around, to post anywhere —
 * MP4 and GIF. Its owner has it made (on the server, in a few seconds to a minute); everyone who can see the model
 * watches and downloads it once it exists.
 */
export function TurntablePanel({
  item,
}: {
  item: { id: string; name: string; is_owner: boolean; status: string; kind: string; turntable: TurntableDto };
}) {
  const { api } = useAuth();
  const toast = useToast();
  const revalidator = useRevalidator();
  const [asking, setAsking] = useState(false);
  const { turntable } = item;
  const rendering = turntable.state === "rendering";
  useRevalidateWhile(item.is_owner && rendering);
  if (item.kind === "scene" || (!item.is_owner && turntable.state !== "ready")) return null;

  const make = async () => {
    setAsking(true);
    try {
      await api(`/item/${item.id}/turntable`, { method: "POST" });
      revalidator.revalidate(); // the page shows "Making…" at once, then polls until it is made
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
    } finally {
      setAsking(false);
    }
  };

  return (
    <section className="item-panel" aria-labelledby="turntable-heading" data-testid="turntable-panel">
      <h2 id="turntable-heading">Turntable video</h2>
      {turntable.state === "ready" && turntable.mp4_url ? (
        <>
          <video className="turntable-video" src={turntable.mp4_url} poster={turntable.poster_url ?? undefined} autoPlay muted loop playsInline aria-label={`${item.name} turning`} />
          <p className="turntable-downloads">
            <a href={`${turntable.mp4_url}&download=true`} download data-testid="turntable-mp4">
              <i className="pi pi-video" aria-hidden="true" /> MP4
            </a>
            <a href={`${turntable.gif_url}&download=true`} download data-testid="turntable-gif">
              <i className="pi pi-image" aria-hidden="true" /> GIF
            </a>
          </p>
        </>
      ) : null}
      {item.is_owner ? (
        <>
          {rendering ? (
            <p className="item-panel-note" role="status" data-testid="turntable-status">
              <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Making the turntable…
            </p>
          ) : null}
          {turntable.state === "failed" ? (
            <p className="item-panel-warn" data-testid="turntable-status">
              The turntable could not be made: {turntable.error}
            </p>
          ) : null}
          {!rendering ? (
            <Button
              size="small"
              outlined
              icon="pi pi-video"
              label={turntable.state === "ready" ? "Make it again" : "Make a turntable video"}
              loading={asking}
              disabled={item.status !== "ready"}
              onClick={() => void make()}
            />
          ) : null}
          <p className="item-panel-note">It goes once around from the opening view, on your background: MP4 and GIF to post anywhere.</p>
        </>
      ) : null}
    </section>
  );
}
