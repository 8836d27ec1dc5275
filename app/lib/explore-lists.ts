// The lists Explore offers on the front door: its sorts and its categories, as the page's form asks for them.

/** Explore's default sort: featured models first, then the newest (issue 35 item 5). A URL without `sort` asks for it. */
export const DEFAULT_EXPLORE_SORT = "featured";

/** Explore's sorts, as the front door offers them. */
export const EXPLORE_SORTS = [
  { value: "featured", label: "Featured first" },
  { value: "newest", label: "Newest" },
  { value: "most_viewed", label: "Most viewed" },
] as const;

/** The paths of the lists a visitor can pick on the front door besides the front door itself: each other sort, each category. */
export function exploreListPaths(categorySlugs: string[]): string[] {
  return [
    ...EXPLORE_SORTS.filter((sort) => sort.value !== DEFAULT_EXPLORE_SORT).map((sort) => `/?sort=${sort.value}`),
    ...categorySlugs.map((slug) => `/?${new URLSearchParams({ category: slug })}`),
  ];
}
