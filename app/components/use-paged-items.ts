import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Cursor pagination for a grid whose first page comes from the route loader: `loadMore` fetches the
 * next page from the same loader (`?cursor=`), and a sentinel element loads it when scrolled into view.
 * The list resets when the first page changes (new filters).
 */
export function usePagedItems<T extends { id: string }>(first: Page<T>, pageUrl: (cursor: string) => string) {
  // The loader's own JSON (already serialised), so its items have the same shape as the first page's.
  const fetcher = useFetcher<unknown>();
  const [items, setItems] = useState(first.items);
  const [cursor, setCursor] = useState(first.nextCursor);
  const requested = useRef<string | null>(null);

  useEffect(() => {
    setItems(first.items);
    setCursor(first.nextCursor);
    requested.current = null;
  }, [first]);

  useEffect(() => {
    const data = fetcher.data as Page<T> | undefined;
    if (fetcher.state !== "idle" || !data || requested.current === null) return;
    requested.current = null;
    setItems((current) => {
      const seen = new Set(current.map((i) => i.id));
      return [...current, ...data.items.filter((i) => !seen.has(i.id))];
    });
    setCursor(data.nextCursor);
  }, [fetcher.state, fetcher.data]);

  const loading = fetcher.state !== "idle";
  const loadMore = useCallback(() => {
    if (!cursor || requested.current !== null) return;
    requested.current = cursor;
    fetcher.load(pageUrl(cursor));
  }, [cursor, fetcher, pageUrl]);

  // Infinite scroll: the sentinel after the grid loads the next page as it nears the viewport.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !cursor || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMore();
    }, { rootMargin: "400px 0px" });
    observer.observe(element);
    return () => observer.disconnect();
  }, [cursor, loadMore]);

  return { items, hasMore: cursor !== null, loading, loadMore, sentinel };
}
