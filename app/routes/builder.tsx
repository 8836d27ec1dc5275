import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { Button } from "primereact/button";
import { ConfirmDialog } from "primereact/confirmdialog";
import { useConfirmDeleteItem } from "~/components/use-confirm-delete-item";
import { getPageUser } from "~/auth/require-user.server";
import { BuilderFrame } from "~/components/builder/builder-frame";
import { useCreateScene } from "~/components/builder/use-create-scene";
import { listOwnScenes } from "~/domain/scenes.server";
import { MAX_SCENE_PARTS } from "~/domain/scene-schemas";
import { sceneCardMeta } from "~/components/builder/scene-status";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { layout: false };
export const meta: MetaFunction = () => [{ title: "Builder — Scanroom" }];

/** Signed out, the page says what the Builder is and where to sign in (null scenes). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getPageUser(request);
  return json({ scenes: user ? await listOwnScenes({ ownerId: user.id }) : null });
}

/** /builder: the signed-in creator's scenes, and a new one (empty, or from models picked in /builder/import). */
export default function Builder() {
  const { scenes } = useLoaderData<typeof loader>();
  const { creating, create } = useCreateScene();

  return (
    <BuilderFrame title="Builder">
      <div className="builder-intro">
        <p>
          Place several of your models — gaussian splats and meshes together — in one scene, move, turn and scale them, and save the scene
          as a model of its own: it gets a page, an embed code and a share link like any other. A scene holds up to {MAX_SCENE_PARTS} models.
        </p>
        {scenes ? (
          <div className="builder-intro-actions">
            <Link to="/builder/import" className="p-button">
              <i className="pi pi-plus" aria-hidden="true" />
              &nbsp;New scene from my models
            </Link>
            <Button label="Empty scene" icon="pi pi-file" outlined loading={creating} onClick={() => create({})} />
          </div>
        ) : (
          <div className="builder-intro-actions">
            <Link to="/auth?redirect=%2Fbuilder" className="p-button">
              Sign in to build scenes
            </Link>
          </div>
        )}
      </div>
      {scenes ? <SceneList scenes={scenes} /> : null}
    </BuilderFrame>
  );
}

function SceneList({ scenes }: { scenes: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["scenes"]> }) {
  const revalidator = useRevalidator();
  // A draft left unsaved can go from here: it is listed nowhere else (decision 046).
  const confirmDelete = useConfirmDeleteItem(() => revalidator.revalidate());
  return (
    <>
      <ConfirmDialog />
      <h2 className="builder-subtitle">My scenes</h2>
      {scenes.length === 0 ? (
        <p className="builder-empty" data-testid="no-scenes">
          You have no scenes yet.
        </p>
      ) : (
        <ul className="builder-scene-list" data-testid="scene-list">
          {scenes.map((scene) => (
            <li key={scene.id} className="builder-scene-card" data-draft={scene.is_draft || undefined}>
              <Link to={`/builder/${scene.id}`} className="builder-scene-link">
                {scene.thumbnail_url ? <img src={scene.thumbnail_url} alt="" loading="lazy" /> : <span className="builder-scene-placeholder pi pi-objects-column" aria-hidden="true" />}
                <span className="builder-scene-name">{scene.name}</span>
              </Link>
              <span className="builder-scene-meta">{sceneCardMeta(scene)}</span>
              {/* A draft has nothing to view or share yet (decision 046): it opens in the editor above. */}
              {scene.is_draft ? (
                <Button
                  type="button"
                  text
                  size="small"
                  severity="danger"
                  className="builder-scene-view"
                  label="Delete"
                  aria-label={`Delete draft ${scene.name}`}
                  onClick={() => confirmDelete(scene)}
                />
              ) : (
                <Link to={`/item/${scene.id}`} className="builder-scene-view">
                  View
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
