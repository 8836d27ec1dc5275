// The Shopify side of the embedded admin journey (tests/e2e/shopify-admin.spec.ts): the app credentials the e2e
// server runs with, and a fake Admin GraphQL API at the network edge. The e2e server is another process, so it is
// pointed here with SHOPIFY_TEST_ADMIN_ORIGIN (docs/decisions/013): the Shopify library's call to
// `https://{shop}/admin/api/{version}/graphql.json` arrives as `/{shop}/admin/api/{version}/graphql.json`, with
// its access token and body unchanged. Answers have the shapes Shopify sends (as in
// tests/integration/shopify-admin.test.ts); only the shop's own token is accepted.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export const SHOPIFY_TEST_APP = { apiKey: "scanroom-e2e-api-key", apiSecret: "scanroom-e2e-api-secret-0123456789" } as const;

/** Derived from E2E_PORT so that concurrent e2e runs each have their own. */
export const FAKE_ADMIN_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1000}`;

/** What tests/e2e/server.ts adds to the app's environment. */
export const SHOPIFY_E2E_ENV = {
  SHOPIFY_API_KEY: SHOPIFY_TEST_APP.apiKey,
  SHOPIFY_API_SECRET: SHOPIFY_TEST_APP.apiSecret,
  SHOPIFY_TEST_ADMIN_ORIGIN: FAKE_ADMIN_ORIGIN,
};

export interface FakeProduct {
  id: number;
  title: string;
  handle: string;
  imageUrl: string | null;
  variants: Array<{ id: number; title: string }>;
}

export interface AdminCall {
  operation: string;
  variables: Record<string, any>;
}

/** A 3D model in a product's media at "Shopify": processing until its state is next read, then ready. */
export interface FakeModelMedia {
  id: string;
  productId: string;
  alt: string;
  status: "PROCESSING" | "READY";
  bytes: Buffer;
}

/** The store's staged uploads (Shopify's bucket: a multipart POST here) and its products' 3D media. */
interface MediaState {
  staged: Map<string, Buffer>;
  media: FakeModelMedia[];
}

function productNode(p: FakeProduct) {
  return {
    id: `gid://shopify/Product/${p.id}`,
    title: p.title,
    handle: p.handle,
    status: "ACTIVE",
    featuredMedia: p.imageUrl ? { preview: { image: { url: p.imageUrl } } } : null,
    variants: { nodes: p.variants.map((v) => ({ id: `gid://shopify/ProductVariant/${v.id}`, title: v.title })) },
  };
}

const mediaNode = (m: FakeModelMedia) => ({ id: m.id, alt: m.alt, mediaContentType: "MODEL_3D", status: m.status, mediaErrors: [] });

function answer(products: FakeProduct[], state: MediaState, operation: string, variables: Record<string, any>): unknown {
  switch (operation) {
    case "ScanroomStageModel": {
      const key = `staged/${state.staged.size + state.media.length + 1}/${variables.input[0].filename}`;
      return {
        stagedUploadsCreate: {
          stagedTargets: [{ url: `${FAKE_ADMIN_ORIGIN}/staged-uploads`, resourceUrl: `${FAKE_ADMIN_ORIGIN}/staged-uploads/${key}`, parameters: [{ name: "key", value: key }] }],
          userErrors: [],
        },
      };
    }
    case "ScanroomAddModelMedia": {
      const [input] = variables.media;
      const bytes = state.staged.get(new URL(input.originalSource).pathname.replace("/staged-uploads/", ""));
      if (!bytes) return { productUpdate: { product: null, userErrors: [{ field: ["media"], message: "The staged file is missing." }] } };
      const media: FakeModelMedia = { id: `gid://shopify/Model3d/${9000 + state.media.length}`, productId: variables.product.id, alt: input.alt, status: "PROCESSING", bytes };
      state.media.push(media);
      return { productUpdate: { product: { media: { nodes: [mediaNode(media)] } }, userErrors: [] } };
    }
    case "ScanroomModelMediaStatus":
      return {
        nodes: variables.ids.map((id: string) => {
          const media = state.media.find((m) => m.id === id);
          if (media) media.status = "READY";
          return media ? mediaNode(media) : null;
        }),
      };
    case "ScanroomProducts": {
      const text = typeof variables.query === "string" ? variables.query.toLowerCase() : "";
      const page = products.filter((p) => p.title.toLowerCase().includes(text)).slice(0, variables.first ?? 20);
      const cursor = (i: number) => Buffer.from(String(i)).toString("base64");
      return {
        products: {
          nodes: page.map(productNode),
          pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: page.length ? cursor(0) : null, endCursor: page.length ? cursor(page.length - 1) : null },
        },
      };
    }
    case "ScanroomProduct": {
      const product = products.find((p) => `gid://shopify/Product/${p.id}` === variables.id);
      return { product: product ? productNode(product) : null };
    }
    case "ScanroomSetModel": {
      const input = variables.metafields[0];
      return { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1", namespace: "app--1--scanroom", key: input.key }], userErrors: [] } };
    }
    default:
      return undefined;
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** One store's Admin API on FAKE_ADMIN_ORIGIN; `calls` records each GraphQL operation it answered. */
export async function startFakeAdminApi({ shop, accessToken, products }: { shop: string; accessToken: string; products: FakeProduct[] }) {
  const calls: AdminCall[] = [];
  const state: MediaState = { staged: new Map(), media: [] };
  const graphqlPath = new RegExp(`^/${shop.replace(/\./g, "\\.")}/admin/api/[\\w-]+/graphql\\.json$`);
  const server = createServer(async (req, res) => {
    if (req.method === "POST" && req.url === "/staged-uploads") {
      // The staged upload: form fields, then the file (as Shopify's bucket takes it).
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = await new Request("http://staged/", { method: "POST", headers: { "content-type": String(req.headers["content-type"]) }, body: Buffer.concat(chunks) }).formData();
      const file = form.get("file");
      if (!(file instanceof Blob) || typeof form.get("key") !== "string") return send(res, 400, { error: "key and file are required" });
      state.staged.set(String(form.get("key")), Buffer.from(await file.arrayBuffer()));
      res.writeHead(204).end();
      return;
    }
    if (req.method !== "POST" || !graphqlPath.test(req.url ?? "") || req.headers["x-shopify-access-token"] !== accessToken) {
      return send(res, 401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    }
    const body = await readJson(req);
    const operation = /(?:query|mutation)\s+(\w+)/.exec(body.query)?.[1] ?? "anonymous";
    const data = answer(products, state, operation, body.variables ?? {});
    if (data === undefined) return send(res, 200, { errors: [{ message: `the fake Admin API does not know ${operation}` }] });
    calls.push({ operation, variables: body.variables ?? {} });
    send(res, 200, { data });
  });
  const { port, hostname } = new URL(FAKE_ADMIN_ORIGIN);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(port), hostname, resolve);
  });
  return { calls, media: state.media, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
