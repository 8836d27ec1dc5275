import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { getPageUser } from "~/auth/require-user.server";
import { ItemCard } from "~/components/item-card";
import { presentItem } from "~/domain/item-presenter";
import { listItems } from "~/domain/items.server";
import { listItemsQuerySchema } from "~/domain/schemas";
import { resetClosedAnnouncements } from "~/lib/announcements-storage";

export const meta: MetaFunction = () => [
  { title: "Scanroom — turn videos and photos into 3D models" },
  { name: "description", content: "Explore 3D models and gaussian splats made with Scanroom." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // A Shopify install lands on / with ?shop=: send it to the embedded app (DESIGN §4).
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  const user = await getPageUser(request);
  const query = listItemsQuerySchema.parse({ limit: 24 });
  const page = await listItems({ viewerId: null, query });
  return json({ items: page.items.map((item) => presentItem(item, user?.id ?? null)), nextCursor: page.next_cursor });
}

export default function Explore() {
  const { items } = useLoaderData<typeof loader>();
  useEffect(() => resetClosedAnnouncements(), []);
  return (
    <section className="page">
      <h1>Explore</h1>
      {items.length === 0 ? (
        <p className="empty-state">No public models yet. Upload one and make it public to see it here.</p>
      ) : (
        <div className="item-grid">
          {items.map((item) => (
            <ItemCard key={item.id} item={item} />
          ))}
        </div>
      )}
    </section>
  );
}
