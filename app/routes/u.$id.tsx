import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useCallback } from "react";
import { ItemCard } from "~/components/item-card";
import { isAppError } from "~/lib/errors";
import { presentItem } from "~/domain/item-presenter";
import { countPublicItems, listItems } from "~/domain/items.server";
import { assertPageCursor } from "~/domain/pagination";
import { listItemsQuerySchema, uuidSchema } from "~/domain/schemas";
import { presentPublicUser } from "~/domain/user-presenter";
import { getUserById } from "~/domain/users.server";
import { formatDate, pluralize } from "~/lib/format";
import { usePagedItems } from "~/components/use-paged-items";
import { LoadMore } from "~/components/load-more";

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!uuidSchema.safeParse(params.id).success) throw new Response("Not found", { status: 404 });
  let user;
  try {
    user = await getUserById({ userId: params.id! });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
    throw error;
  }
  const cursor = new URL(request.url).searchParams.get("cursor") || undefined;
  assertPageCursor(cursor, "newest");
  // A profile shows public models only, whoever looks at it (the owner included).
  const [page, total] = await Promise.all([
    listItems({ viewerId: null, query: listItemsQuerySchema.parse({ owner: user.id, cursor, limit: 24 }) }),
    countPublicItems({ ownerId: user.id }),
  ]);
  return json({
    profile: presentPublicUser(user),
    total,
    items: page.items.map((item) => presentItem(item, null)),
    nextCursor: page.next_cursor,
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.profile.display_name ?? "Anonymous"} — Scanroom` : "Profile — Scanroom" },
];

export default function Profile() {
  const data = useLoaderData<typeof loader>();
  const { profile, total } = data;
  const pageUrl = useCallback((cursor: string) => `/u/${profile.id}?cursor=${encodeURIComponent(cursor)}`, [profile.id]);
  const { items, hasMore, loading, loadMore, sentinel } = usePagedItems(data, pageUrl);
  const name = profile.display_name ?? "Anonymous";
  return (
    <section className="page profile">
      <header className="profile-head">
        <span className="profile-avatar" aria-hidden="true">
          {profile.avatar_url ? <img src={profile.avatar_url} alt="" width={96} height={96} /> : name.slice(0, 1).toUpperCase()}
        </span>
        <div>
          <h1>{name}</h1>
          <p className="item-meta">
            Member since {formatDate(profile.created_at)} · {pluralize(total, "public model")}
          </p>
        </div>
      </header>
      {items.length === 0 ? (
        <p className="empty-state">{name} has no public models yet.</p>
      ) : (
        <div className="item-grid" data-testid="profile-items">
          {items.map((item) => (
            <ItemCard key={item.id} item={item} showOwner={false}>
              <p className="item-card-meta">{pluralize(item.view_count, "view")}</p>
            </ItemCard>
          ))}
        </div>
      )}
      <LoadMore hasMore={hasMore} loading={loading} onLoadMore={loadMore} sentinel={sentinel} />
    </section>
  );
}
