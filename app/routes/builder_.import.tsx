import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { Button } from "primereact/button";
import { useRef, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { requirePageUser } from "~/auth/require-user.server";
import { BuilderFrame } from "~/components/builder/builder-frame";
import { useToast } from "~/components/toast-provider";
import { useCreateScene } from "~/components/builder/use-create-scene";
import { isAppError } from "~/lib/errors";
import { uuidSchema } from "~/domain/schemas";
import { MAX_SCENE_PARTS } from "~/domain/scene-schemas";
import { getScene, listPlaceableModels } from "~/domain/scenes.server";
import type { RouteHandle } from "~/lib/route-handle";
import { uploadModelFile } from "~/components/upload-flows";
import { classifyFile, MODEL_EXTENSIONS } from "~/lib/upload-rules";

export const handle: RouteHandle = { layout: false };
export const meta: MetaFunction = () => [{ title: "Import — Scanroom Builder" }];

/** ?scene={id}: add to that scene of mine; without it, the picked models start a new scene. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  const sceneParam = new URL(request.url).searchParams.get("scene");
  let scene: { id: string; name: string; part_count: number } | null = null;
  if (sceneParam !== null) {
    if (!uuidSchema.safeParse(sceneParam).success) throw new Response("Not found", { status: 404 });
    try {
      const found = await getScene({ sceneId: sceneParam, viewerId: user.id });
      if (found.item.ownerId !== user.id) throw new Response("Not found", { status: 404 });
      scene = { id: found.item.id, name: found.item.name, part_count: found.parts.length };
    } catch (error) {
      if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
      throw error;
    }
  }
  return json({ scene, models: await listPlaceableModels({ ownerId: user.id }) });
}

interface FileUpload {
  name: string;
  loaded: number;
  total: number;
  state: "uploading" | "done" | "failed";
  error?: string;
}

const ACCEPT = MODEL_EXTENSIONS.map((extension) => `.${extension}`).join(",");

/** /builder/import: pick models from my library (and upload model files into it), then add them to a scene. */
export default function BuilderImport() {
  const { scene, models } = useLoaderData<typeof loader>();
  const { api } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [picked, setPicked] = useState<string[]>([]);
  const [uploads, setUploads] = useState<FileUpload[]>([]);
  const [adding, setAdding] = useState(false);
  const { creating, create } = useCreateScene();
  const fileInput = useRef<HTMLInputElement>(null);
  const room = MAX_SCENE_PARTS - (scene?.part_count ?? 0);
  const uploading = uploads.some((upload) => upload.state === "uploading");

  const toggle = (id: string) => setPicked((current) => (current.includes(id) ? current.filter((other) => other !== id) : [...current, id]));

  const uploadFiles = async (files: File[]) => {
    const models = files.filter((file) => classifyFile(file) === "model");
    const refused = files.filter((file) => classifyFile(file) !== "model");
    if (refused.length > 0) {
      toast({ severity: "warn", summary: "Not a model file", detail: `${refused.map((file) => file.name).join(", ")}: the Builder takes ${MODEL_EXTENSIONS.map((e) => `.${e}`).join(", ")} files.` });
    }
    if (models.length === 0) return;
    const start = uploads.length;
    setUploads((current) => [...current, ...models.map((file) => ({ name: file.name, loaded: 0, total: file.size, state: "uploading" as const }))]);
    const update = (index: number, change: Partial<FileUpload>) =>
      setUploads((current) => current.map((upload, i) => (i === start + index ? { ...upload, ...change } : upload)));
    // One after another: a creator's connection is better used by one file at full speed.
    for (const [index, file] of models.entries()) {
      try {
        const itemId = await uploadModelFile({ api, file, onProgress: (loaded) => update(index, { loaded }) });
        update(index, { state: "done", loaded: file.size });
        setPicked((current) => [...current, itemId]);
      } catch (error) {
        update(index, { state: "failed", error: (error as Error).message });
      }
    }
    revalidator.revalidate(); // the new models join the library list, already ticked
  };

  const add = async () => {
    // A new scene: made with all the picked models, all laid out.
    if (!scene) return create({ item_ids: picked }, { arrange: true });
    const sceneId = scene.id;
    setAdding(true);
    try {
      const { part_ids: partIds } = await api<{ part_ids: string[] }>(`/item/${sceneId}/scene/parts`, { method: "POST", body: { item_ids: picked } });
      // The Builder lays the new models out side by side, after those already placed.
      navigate(`/builder/${sceneId}?arrange=${partIds.join(",")}`);
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
      setAdding(false);
    }
  };

  const overQuota = picked.length > room;
  return (
    <BuilderFrame title={scene ? `Add models to “${scene.name}”` : "New scene from my models"} back={scene ? { to: `/builder/${scene.id}`, label: "Back to the scene" } : undefined}>
      <section className="builder-import-files" aria-labelledby="import-files">
        <h2 id="import-files">From files</h2>
        <p>Model files ({MODEL_EXTENSIONS.map((e) => `.${e}`).join(", ")}) are added to your library (private) and ticked below.</p>
        <input
          ref={fileInput}
          type="file"
          accept={ACCEPT}
          multiple
          className="sr-only"
          id="import-file-input"
          aria-label="Model files to add to your library"
          data-testid="import-file-input"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = "";
            void uploadFiles(files);
          }}
        />
        <Button label="Choose model files" icon="pi pi-upload" outlined onClick={() => fileInput.current?.click()} disabled={uploading} />
        {uploads.length > 0 ? (
          <ul className="builder-uploads" aria-live="polite">
            {uploads.map((upload, index) => (
              <li key={index}>
                {upload.name}:{" "}
                {upload.state === "uploading" ? `${Math.floor((upload.loaded / Math.max(upload.total, 1)) * 100)} %` : upload.state === "done" ? "uploaded" : `failed (${upload.error})`}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section aria-labelledby="import-library">
        <h2 id="import-library">From my library</h2>
        {models.length === 0 ? (
          <p className="builder-empty">Your library has no models with a file yet: upload one above, or scan one from the dashboard.</p>
        ) : (
          <ul className="builder-library" data-testid="library">
            {models.map((model) => (
              <li key={model.id}>
                <label className={`builder-library-card${picked.includes(model.id) ? " is-picked" : ""}`}>
                  <input type="checkbox" checked={picked.includes(model.id)} onChange={() => toggle(model.id)} />
                  {model.thumbnail_url ? <img src={model.thumbnail_url} alt="" loading="lazy" /> : <span className="builder-scene-placeholder pi pi-box" aria-hidden="true" />}
                  <span className="builder-scene-name">{model.name}</span>
                  <span className="builder-scene-meta">
                    {model.model_type === "glb" ? "mesh" : "splat"} · {model.file_format ?? model.model_type} · {model.visibility}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="builder-import-bar">
        {overQuota ? <p className="item-panel-warn">A scene holds at most {MAX_SCENE_PARTS} models: untick {picked.length - room}.</p> : null}
        <Button
          label={scene ? `Add ${picked.length} to the scene` : picked.length > 0 ? `Make a scene with ${picked.length}` : "Pick models to add"}
          icon="pi pi-check"
          onClick={add}
          loading={adding || creating}
          disabled={picked.length === 0 || overQuota || uploading}
        />
      </div>
    </BuilderFrame>
  );
}
