import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { DEFAULT_EXPLORE_SORT, EXPLORE_SORTS } from "~/lib/explore-lists";
import { loaderCacheHeaders, pageHeaders } from "~/lib/public-page-cache";
import { Form, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { Button } from "primereact/button";
import { useCallback, useEffect, useRef, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { FrontDoor } from "~/components/front-door";
import { ItemCard } from "~/components/item-card";
import { getPageUser } from "~/auth/require-user.server";
import { presentItem } from "~/domain/item-presenter";
import { listItems } from "~/domain/items.server";
import { frontDoorModels } from "~/domain/featured.server";
import { assertPageCursor } from "~/domain/pagination";
import { listItemsQuerySchema } from "~/domain/schemas";
import { resetClosedAnnouncements } from "~/lib/announcements-storage";
import { usePagedItems } from "~/components/use-paged-items";
import { LoadMore } from "~/components/load-more";

export const meta: MetaFunction = () => [
  { title: "Scanroom — turn videos and photos into 3D models" },
  { name: "description", content: "Explore 3D models and gaussian splats made with Scanroom." },
];

const PAGE_SIZE = 24;
/** Models on the front door (signed-out visitors): featured ones first, then the most viewed. */
const FEATURED_COUNT = 4;
/** The Explore filters from the URL; anything invalid falls back to "no filter". */
function readFilters(url: URL) {
  const raw = {
    q: url.searchParams.get("q")?.trim() || undefined,
    category: url.searchParams.get("category") || undefined,
    sort: url.searchParams.get("sort") || DEFAULT_EXPLORE_SORT,
    downloadable: url.searchParams.get("downloadable") || undefined,
    cursor: url.searchParams.get("cursor") || undefined,
    limit: PAGE_SIZE,
  };
  const parsed = listItemsQuerySchema.safeParse(raw);
  return parsed.success ? parsed.data : listItemsQuerySchema.parse({ sort: DEFAULT_EXPLORE_SORT, limit: PAGE_SIZE });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // A Shopify install lands on / with ?shop=: send it to the embedded app (DESIGN §4).
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  const query = readFilters(url);
  assertPageCursor(query.cursor, query.sort);
  // Public items only, whoever asks: Explore never lists unlisted or private models.
  const page = await listItems({ viewerId: null, query });
  // The front door's models, for visitors without a session (signed-in users see Explore alone).
  const signedIn = !!(await getPageUser(request));
  const featured = signedIn ? [] : await frontDoorModels(FEATURED_COUNT);
  return json(
    {
      items: page.items.map((item) => presentItem(item, null)),
      featured: featured.map((item) => presentItem(item, null)),
      nextCursor: page.next_cursor,
      filters: { q: query.q ?? "", category: query.category ?? "", sort: query.sort, downloadable: query.downloadable === true },
    },
    { headers: pageHeaders({ shared: !signedIn }) },
  );
}

export const headers = loaderCacheHeaders;

interface Category {
  id: string;
  slug: string;
  name: string;
}

export default function Explore() {
  const data = useLoaderData<typeof loader>();
  const { filters } = data;
  const { api, user, ready } = useAuth();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [categories, setCategories] = useState<Category[]>([]);
  // The search box is uncontrolled, so what a visitor types before the page is hydrated stays (React would put a
  // controlled box back to its state); a new search in the address (back, a link) puts its own words in.
  const searchBox = useRef<HTMLInputElement>(null);
  const shownSearch = useRef(filters.q);

  // SPEC §2: visiting / clears closedAnnouncements and fires resetAnnouncements.
  useEffect(() => resetClosedAnnouncements(), []);
  useEffect(() => {
    if (shownSearch.current === filters.q) return;
    shownSearch.current = filters.q;
    if (searchBox.current) searchBox.current.value = filters.q ?? "";
  }, [filters.q]);
  useEffect(() => {
    api<Category[]>("/categories").then(setCategories, () => setCategories([]));
  }, [api]);

  const pageUrl = useCallback(
    (cursor: string) => {
      const next = new URLSearchParams(params);
      next.set("cursor", cursor);
      return `/?index&${next.toString()}`;
    },
    [params],
  );
  const { items, hasMore, loading, loadMore, sentinel } = usePagedItems(data, pageUrl);
  const busy = navigation.state === "loading" && navigation.location.pathname === "/";

  const apply = (form: HTMLFormElement) => {
    const formData = new FormData(form);
    for (const [key, value] of [...formData.entries()]) if (value === "" || (key === "sort" && value === DEFAULT_EXPLORE_SORT)) formData.delete(key);
    submit(formData, { method: "get", action: "/", replace: true, preventScrollReset: true });
  };

  return (
    <section className="page explore">
      {ready && !user ? <FrontDoor featured={data.featured} /> : null}
      <div className="explore-head">
        {ready && !user ? <h2>Explore</h2> : <h1>Explore</h1>}
        <p className="explore-lead">3D models and gaussian splats captured by the Scanroom community.</p>
      </div>
      <Form
        method="get"
        action="/"
        role="search"
        className="explore-filters"
        onSubmit={(event) => {
          event.preventDefault();
          apply(event.currentTarget);
        }}
      >
        <div className="explore-field explore-search">
          <label htmlFor="explore-q">Search models</label>
          <span className="explore-search-box">
            <input id="explore-q" ref={searchBox} name="q" type="search" className="p-inputtext" defaultValue={filters.q} maxLength={200} placeholder="Title, description or tag, e.g. chair" />
            <Button type="submit" icon="pi pi-search" aria-label="Search" />
          </span>
        </div>
        <div className="explore-field">
          <label htmlFor="explore-category">Category</label>
          <select id="explore-category" name="category" className="p-inputtext" defaultValue={filters.category} key={`c-${filters.category}-${categories.length}`} onChange={(e) => apply(e.currentTarget.form!)}>
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="explore-field">
          <label htmlFor="explore-sort">Sort by</label>
          <select id="explore-sort" name="sort" className="p-inputtext" defaultValue={filters.sort} key={`s-${filters.sort}`} onChange={(e) => apply(e.currentTarget.form!)}>
            {EXPLORE_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <label className="explore-check">
          <input
            type="checkbox"
            name="downloadable"
            value="true"
            defaultChecked={filters.downloadable}
            key={`d-${filters.downloadable}`}
            onChange={(e) => apply(e.currentTarget.form!)}
          />{" "}
          Downloadable only
        </label>
      </Form>
      <div aria-live="polite" aria-busy={busy} className={busy ? "explore-results is-busy" : "explore-results"}>
        {items.length === 0 ? (
          <p className="empty-state">
            {filters.q || filters.category || filters.downloadable ? "No public models match these filters." : "No public models yet. Upload one and make it public to see it here."}
          </p>
        ) : (
          <div className="item-grid" data-testid="explore-grid">
            {items.map((item) => (
              <ItemCard key={item.id} item={item} />
            ))}
          </div>
        )}
      </div>
      <LoadMore hasMore={hasMore} loading={loading} onLoadMore={loadMore} sentinel={sentinel} />
    </section>
  );
}
