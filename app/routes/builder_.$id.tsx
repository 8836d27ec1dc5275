import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Button } from "primereact/button";
import { useCallback } from "react";
import { requirePageUser } from "~/auth/require-user.server";
import { BuilderFrame } from "~/components/builder/builder-frame";
import { SceneEditor } from "~/components/builder/scene-editor";
import { useCreateScene } from "~/components/builder/use-create-scene";
import { isAppError } from "~/lib/errors";
import { getOwnedItem, getVisibleItem } from "~/domain/item-access.server";
import { uuidSchema } from "~/domain/schemas";
import { presentViewableItem } from "~/domain/scenes.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { layout: false };

/** The owner's scene (the editor) or model (a scene starts with it); anyone else gets the 404 of an unknown id. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  if (!uuidSchema.safeParse(params.id).success) throw new Response("Not found", { status: 404 });
  try {
    await getOwnedItem({ itemId: params.id!, ownerId: user.id });
    const item = await presentViewableItem(await getVisibleItem({ itemId: params.id!, viewerId: user.id }), user.id);
    return json({ item });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
    throw error;
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Builder: ${data.item.name} — Scanroom` : "Builder — Scanroom" }];

function parseArrange(value: string | null): string[] | "all" | null {
  if (!value) return null;
  if (value === "all") return "all";
  const ids = value.split(",").filter((id) => uuidSchema.safeParse(id).success);
  return ids.length > 0 ? ids : null;
}

export default function BuilderForItem() {
  const { item } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const onArranged = useCallback(() => {
    setParams(
      (current) => {
        current.delete("arrange");
        return current;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [setParams]);
  if (item.kind === "scene") return <SceneEditor key={item.id} scene={item} arrange={parseArrange(params.get("arrange"))} onArranged={onArranged} />;
  return <StartScene item={item} />;
}

/** /builder/{id} for one of my models: a new scene with it in the middle. */
function StartScene({ item }: { item: { id: string; name: string; model_url: string | null } }) {
  const { creating, create } = useCreateScene();
  // The scene is named after the model (defaultSceneName).
  const start = () => create({ item_ids: [item.id] });
  return (
    <BuilderFrame title={`Builder: ${item.name}`} back={{ to: `/item/${item.id}`, label: "Back to the model" }}>
      {item.model_url ? (
        <>
          <p>Start a new scene with “{item.name}” in it, then add more of your models around it. The model itself stays as it is.</p>
          <Button label="Start a scene with this model" icon="pi pi-objects-column" loading={creating} onClick={start} />
        </>
      ) : (
        <p className="builder-empty">“{item.name}” has no model file yet: it can join a scene once it is ready.</p>
      )}
      <p>
        <Link to="/builder">My scenes</Link>
      </p>
    </BuilderFrame>
  );
}
