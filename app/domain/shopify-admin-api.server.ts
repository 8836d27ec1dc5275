import { z } from "zod";
import { MODEL_METAFIELD, type ModelMetafieldValue } from "~/lib/shopify-model-metafield";
import { AppError } from "~/lib/errors";

/**
 * The few Admin GraphQL operations the app uses (products read, app-owned metafield write). Callers pass
 * the `admin` client of `authenticate.admin` (or of an unauthenticated offline session); every answer is
 * parsed with zod, so an unexpected shape fails loudly instead of spreading `undefined`.
 */
export interface AdminGraphql {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
}

const PRODUCTS_PAGE_SIZE = 20;
/** Variants listed per product. Shopify allows up to 2,048; the admin shows the first 100. */
const VARIANTS_PER_PRODUCT = 100;
const HANDLES_PER_QUERY = 50;

export const gid = (type: string) => z.string().startsWith(`gid://shopify/${type}/`);

const variantSchema = z.object({ id: gid("ProductVariant"), title: z.string() });
const productSchema = z.object({
  id: gid("Product"),
  title: z.string(),
  handle: z.string(),
  status: z.string(),
  featuredMedia: z
    .object({ preview: z.object({ image: z.object({ url: z.string() }).nullable() }).nullable() })
    .nullable()
    .optional(),
  variants: z.object({ nodes: z.array(variantSchema) }),
});
const pageInfoSchema = z.object({
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
  startCursor: z.string().nullable(),
  endCursor: z.string().nullable(),
});
export const userErrorsSchema = z.array(z.object({ field: z.array(z.string()).nullable().optional(), message: z.string() }));

export type ShopifyProduct = {
  id: string;
  title: string;
  handle: string;
  status: string;
  imageUrl: string | null;
  variants: Array<{ id: string; title: string }>;
};

function presentProduct(node: z.infer<typeof productSchema>): ShopifyProduct {
  return {
    id: node.id,
    title: node.title,
    handle: node.handle,
    status: node.status,
    imageUrl: node.featuredMedia?.preview?.image?.url ?? null,
    variants: node.variants.nodes,
  };
}

/** One Admin GraphQL call, its `data` parsed with `data` (an unexpected shape throws). */
export async function request<T>(admin: AdminGraphql, query: string, variables: Record<string, unknown>, data: z.ZodType<T>): Promise<T> {
  const response = await admin.graphql(query, { variables });
  const body = (await response.json()) as { data?: unknown };
  const parsed = data.safeParse(body.data);
  if (!parsed.success) throw new Error(`Unexpected Admin API answer: ${parsed.error.message}`);
  return parsed.data;
}

const PRODUCT_FIELDS = `
  id title handle status
  featuredMedia { preview { image { url(transform: { maxWidth: 120, maxHeight: 120 }) } } }
  variants(first: ${VARIANTS_PER_PRODUCT}) { nodes { id title } }
`;

const PRODUCTS_QUERY = `#graphql
  query ScanroomProducts($first: Int, $last: Int, $after: String, $before: String, $query: String) {
    products(first: $first, last: $last, after: $after, before: $before, query: $query, sortKey: TITLE) {
      nodes { ${PRODUCT_FIELDS} }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;

/** Shopify search syntax treats these as operators; a merchant's search text is matched literally. */
function searchText(raw: string): string | undefined {
  const cleaned = raw.replace(/[\\"'():]/g, " ").replace(/\s+/g, " ").trim();
  return cleaned ? cleaned : undefined;
}

/** One page of the store's products (by title), optionally filtered by a search text. */
export async function listProducts(
  admin: AdminGraphql,
  { search = "", after, before }: { search?: string; after?: string; before?: string },
) {
  const variables = before
    ? { last: PRODUCTS_PAGE_SIZE, before, query: searchText(search) }
    : { first: PRODUCTS_PAGE_SIZE, after, query: searchText(search) };
  const data = await request(
    admin,
    PRODUCTS_QUERY,
    variables,
    z.object({ products: z.object({ nodes: z.array(productSchema), pageInfo: pageInfoSchema }) }),
  );
  return { products: data.products.nodes.map(presentProduct), pageInfo: data.products.pageInfo };
}

const PRODUCT_QUERY = `#graphql
  query ScanroomProduct($id: ID!) {
    product(id: $id) { ${PRODUCT_FIELDS} }
  }`;

/** One product of this store, or a 404 (the Admin API only sees the authenticated shop's products). */
export async function getProduct(admin: AdminGraphql, productGid: string): Promise<ShopifyProduct> {
  const data = await request(admin, PRODUCT_QUERY, { id: productGid }, z.object({ product: productSchema.nullable() }));
  if (!data.product) throw new AppError("not_found", "Product not found.");
  return presentProduct(data.product);
}

/** Products by handle (for the CSV import), in batches; handles that match nothing are simply absent. */
export async function findProductsByHandles(admin: AdminGraphql, handles: string[]): Promise<Map<string, ShopifyProduct>> {
  const found = new Map<string, ShopifyProduct>();
  const unique = [...new Set(handles)];
  for (let start = 0; start < unique.length; start += HANDLES_PER_QUERY) {
    const batch = unique.slice(start, start + HANDLES_PER_QUERY);
    const data = await request(
      admin,
      PRODUCTS_QUERY,
      { first: batch.length, query: batch.map((handle) => `handle:${handle}`).join(" OR ") },
      z.object({ products: z.object({ nodes: z.array(productSchema), pageInfo: pageInfoSchema }) }),
    );
    for (const node of data.products.nodes) {
      if (batch.includes(node.handle)) found.set(node.handle, presentProduct(node));
    }
  }
  return found;
}

const METAFIELDS_SET = `#graphql
  mutation ScanroomSetModel($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id namespace key }
      userErrors { field message }
    }
  }`;

const METAFIELDS_DELETE = `#graphql
  mutation ScanroomDeleteModel($metafields: [MetafieldIdentifierInput!]!) {
    metafieldsDelete(metafields: $metafields) {
      deletedMetafields { key namespace ownerId }
      userErrors { field message }
    }
  }`;

/** Writes (or, for null, deletes) the product's app-owned model metafield that the theme block reads. */
export async function writeModelMetafield(admin: AdminGraphql, productGid: string, value: ModelMetafieldValue | null) {
  const identifier = { ownerId: productGid, namespace: MODEL_METAFIELD.namespace, key: MODEL_METAFIELD.key };
  const result = value
    ? (
        await request(
          admin,
          METAFIELDS_SET,
          { metafields: [{ ...identifier, type: MODEL_METAFIELD.type, value: JSON.stringify(value) }] },
          z.object({ metafieldsSet: z.object({ userErrors: userErrorsSchema }) }),
        )
      ).metafieldsSet
    : (
        await request(
          admin,
          METAFIELDS_DELETE,
          { metafields: [identifier] },
          z.object({ metafieldsDelete: z.object({ userErrors: userErrorsSchema }) }),
        )
      ).metafieldsDelete;
  if (result.userErrors.length > 0) {
    throw new Error(`Shopify refused the metafield write: ${result.userErrors.map((e) => e.message).join("; ")}`);
  }
}
