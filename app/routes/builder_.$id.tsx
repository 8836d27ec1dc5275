import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { BarePage } from "~/components/bare-page";
import type { RouteHandle } from "~/lib/route-handle";
import { loadVisibleItem } from "~/lib/visible-item.server";

export const handle: RouteHandle = { layout: false };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const item = await loadVisibleItem(request, params.id, { countView: false });
  return json({ item: { id: item.id, name: item.name, is_owner: item.is_owner } });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Builder: ${data.item.name} — Scanroom` : "Builder — Scanroom" }];

export default function BuilderForItem() {
  const { item } = useLoaderData<typeof loader>();
  return (
    <BarePage title={`Builder: ${item.name}`}>
      <p className="bare-status" data-testid="not-available">The Builder is not available yet.</p>
      <p>
        Here you will be able to build a scene around “{item.name}”: annotations, background and lighting, and camera tours for the viewer
        and embeds.
      </p>
      <ul className="bare-links">
        <li><Link to={`/item/${item.id}`}>Back to the model</Link></li>
        {item.is_owner ? <li><Link to={`/item/${item.id}/edit`}>Edit its name, visibility and thumbnail</Link></li> : null}
      </ul>
    </BarePage>
  );
}
