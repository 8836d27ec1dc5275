import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { env } from "~/env.server";
import { authenticateAdmin } from "~/shopify.server";

// The embedded Shopify admin layout: every /app/* route is authenticated here first.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

// Rendered inside the Shopify admin with Polaris: no site chrome or site providers.
export const handle = { surface: "shopify", layout: false };

export async function loader({ request }: LoaderFunctionArgs) {
  await authenticateAdmin(request);
  return { apiKey: env().SHOPIFY_API_KEY };
}

export default function ShopifyAdminLayout() {
  const { apiKey } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey}>
      <NavMenu>
        <Link to="/app" rel="home">
          Scanroom
        </Link>
        <Link to="/app/products">Products</Link>
        <Link to="/app/bulk">Bulk import</Link>
        <Link to="/app/plans">Plans</Link>
      </NavMenu>
      <Outlet />
    </AppProvider>
  );
}

// Shopify needs the library to render its thrown responses (bounce page, exit-iframe) and keep their headers.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
