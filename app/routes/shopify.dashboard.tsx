import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getPageUser } from "~/auth/require-user.server";
import { BarePage } from "~/components/bare-page";
import { getAccountSummary } from "~/domain/shop-dashboard.server";
import { listConnectedShops } from "~/domain/shop-connect.server";
import { formatDate } from "~/lib/format";
import type { RouteHandle } from "~/lib/route-handle";
import { legacyId } from "~/lib/shopify-model-metafield";

// /shopify/dashboard (no layout): the signed-in user's connected Shopify stores outside the Shopify admin —
// the same connection, plan and usage, and product links the embedded admin shows.

export const handle: RouteHandle = { layout: false };
export const meta: MetaFunction = () => [{ title: "Shopify dashboard — Scanroom" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getPageUser(request);
  const url = new URL(request.url);
  if (!user) return json({ user: null, signInUrl: `/auth?redirect=${encodeURIComponent(url.pathname)}` });
  const [shops, account] = await Promise.all([
    listConnectedShops({ userId: user.id }),
    getAccountSummary({ userId: user.id, label: user.email ?? user.displayName }),
  ]);
  return json({
    user: { label: account.label },
    justConnected: url.searchParams.get("connected"),
    account,
    shops: shops.map((shop) => ({
      shopDomain: shop.shopDomain,
      installed: !shop.uninstalledAt,
      installedOn: formatDate(shop.installedAt),
      paysFor: shop.planName,
      links: shop.links.map((link) => ({
        product: legacyId(link.productGid),
        variant: link.variantGid ? legacyId(link.variantGid) : null,
        item: link.item,
      })),
    })),
  });
}

function limit(used: number, quota: number) {
  return quota === -1 ? `${used} (unlimited)` : `${used} of ${quota}`;
}

export default function ShopifyDashboard() {
  const data = useLoaderData<typeof loader>();
  if (!data.user) {
    return (
      <BarePage title="Shopify dashboard">
        <p>Sign in to see the Shopify stores connected to your Scanroom account.</p>
        <Link className="p-button" to={data.signInUrl}>
          Sign in
        </Link>
      </BarePage>
    );
  }
  const { account, shops, justConnected } = data;
  return (
    <BarePage title="Shopify dashboard">
      {justConnected && (
        <p className="bare-status" role="status" data-testid="connected-banner">
          {justConnected} is now connected to your account.
        </p>
      )}
      <dl className="settings-facts">
        <div>
          <dt>Account</dt>
          <dd>{account.label}</dd>
        </div>
        <div>
          <dt>Plan</dt>
          <dd>
            {account.plan.name}
            {account.plan.provider === "shopify" ? " (billed by Shopify)" : ""}
          </dd>
        </div>
        <div>
          <dt>Product links (all stores)</dt>
          <dd>{limit(account.usage.linksUsed, account.usage.linkQuota)}</dd>
        </div>
      </dl>
      <h2>Connected stores</h2>
      {shops.length === 0 ? (
        <p>No store is connected yet. Open the Scanroom app in your Shopify admin and choose Connect account.</p>
      ) : (
        shops.map((shop) => (
          <section key={shop.shopDomain} className="shop-dashboard-store" data-testid="connected-shop">
            <h3>{shop.shopDomain}</h3>
            <p>
              {shop.installed ? `App installed since ${shop.installedOn}` : "App uninstalled"}
              {shop.paysFor ? ` · pays for the ${shop.paysFor} plan` : ""}
            </p>
            {shop.links.length === 0 ? (
              <p>No product shows a model yet.</p>
            ) : (
              <table className="shop-dashboard-links">
                <thead>
                  <tr>
                    <th scope="col">Product</th>
                    <th scope="col">Variant</th>
                    <th scope="col">Model</th>
                  </tr>
                </thead>
                <tbody>
                  {shop.links.map((link) => (
                    <tr key={`${link.product}:${link.variant ?? ""}`}>
                      <td>{link.product}</td>
                      <td>{link.variant ?? "All variants"}</td>
                      <td>
                        <Link to={`/item/${link.item.id}`}>{link.item.name}</Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        ))
      )}
      <p>Attach and detach models in the Scanroom app inside your Shopify admin.</p>
    </BarePage>
  );
}
