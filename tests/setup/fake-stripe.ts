import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * Stripe faked at the network edge (STYLE habit 9): a local HTTP server speaking the part of Stripe's
 * REST API the app calls (customers, Checkout Sessions, subscriptions, the billing portal), plus the
 * browser-facing hosted checkout page. The app reaches it through STRIPE_API_BASE with the real
 * `stripe` client; webhook events are signed with the real library's `generateTestHeaderString`.
 * Everything the app sent is recorded in `requests` for assertions.
 */
export interface FakeRequest {
  method: string;
  path: string;
  body: Record<string, any>;
  idempotencyKey: string | null;
}

export interface FakeEvent {
  id: string;
  object: "event";
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: any };
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  requests: FakeRequest[];
  customers: Map<string, any>;
  sessions: Map<string, any>;
  subscriptions: Map<string, any>;
  /** Where the hosted checkout page delivers its events (the app's /webhooks/stripe). */
  webhookUrl: string | null;
  /** Pays a Checkout Session as the customer would: answers the events Stripe sends, not yet delivered. */
  completeCheckout(sessionId: string, options?: { paymentStatus?: "paid" | "unpaid" }): FakeEvent[];
  /** Changes a subscription as Stripe would (renewal, failed payment, cancellation) and answers its event. */
  updateSubscription(id: string, patch: Record<string, any>, type?: string): FakeEvent;
  /** An event of `type` about `object`. */
  event(type: string, object: any): FakeEvent;
  /** The Stripe-Signature header for a payload, made by the real library (a wrong secret makes a bad one). */
  sign(payload: string, secret?: string): string;
  /** POSTs a signed event to the webhook URL; answers the app's status and body. */
  deliver(event: FakeEvent, options?: { url?: string; signature?: string }): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test${randomBytes(10).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 24 * 60 * 60;

/** Stripe's form encoding (`line_items[0][price_data][currency]=usd`) back into objects and arrays. */
export function parseStripeForm(text: string): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: any = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[index + 1]);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req") });
  res.end(JSON.stringify(body));
}

const notFound = (res: ServerResponse, what: string) =>
  send(res, 404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` } });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeStripe({ webhookUrl = null }: { webhookUrl?: string | null } = {}): Promise<FakeStripe> {
  const secretKey = "sk_test_fake_scanroom";
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const requests: FakeRequest[] = [];
  const customers = new Map<string, any>();
  const sessions = new Map<string, any>();
  const subscriptions = new Map<string, any>();
  const hidden = new Map<string, any>(); // what a session will make (subscription_data)
  let baseUrl = "";

  const fake: FakeStripe = {
    url: "",
    secretKey,
    webhookSecret,
    requests,
    customers,
    sessions,
    subscriptions,
    webhookUrl,
    event(type, object) {
      return {
        id: id("evt"),
        object: "event",
        type,
        api_version: "2026-10-28.endive",
        created: now(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: structuredClone(object) },
      };
    },
    completeCheckout(sessionId, { paymentStatus = "paid" } = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
      const events: FakeEvent[] = [];
      session.status = "complete";
      session.payment_status = paymentStatus;
      if (session.mode === "subscription") {
        const item = session.line_items[0];
        const start = now();
        const subscription = {
          id: id("sub"),
          object: "subscription",
          customer: session.customer,
          status: paymentStatus === "paid" ? "active" : "incomplete",
          cancel_at_period_end: false,
          created: start,
          metadata: { ...(hidden.get(sessionId)?.subscription_data?.metadata ?? {}) },
          items: {
            object: "list",
            data: [
              {
                id: id("si"),
                object: "subscription_item",
                current_period_start: start,
                current_period_end: start + MONTH,
                quantity: 1,
                price: {
                  id: id("price"),
                  object: "price",
                  currency: item.price_data.currency,
                  unit_amount: Number(item.price_data.unit_amount),
                  recurring: { interval: item.price_data.recurring?.interval ?? "month" },
                  product: id("prod"),
                },
              },
            ],
          },
        };
        subscriptions.set(subscription.id, subscription);
        session.subscription = subscription.id;
        events.push(fake.event("customer.subscription.created", subscription));
      } else {
        session.payment_intent = id("pi");
      }
      events.push(fake.event("checkout.session.completed", session));
      return events;
    },
    updateSubscription(subscriptionId, patch, type = "customer.subscription.updated") {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`fake stripe: no subscription ${subscriptionId}`);
      Object.assign(subscription, patch);
      return fake.event(type, subscription);
    },
    sign(payload, secret = webhookSecret) {
      return Stripe.webhooks.generateTestHeaderString({ payload, secret });
    },
    async deliver(event, { url, signature } = {}) {
      const target = url ?? fake.webhookUrl;
      if (!target) throw new Error("fake stripe: no webhook URL");
      const payload = JSON.stringify(event, null, 2);
      const res = await fetch(target, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": signature ?? fake.sign(payload) },
        body: payload,
      });
      const text = await res.text();
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  async function api(req: IncomingMessage, res: ServerResponse, path: string, body: Record<string, any>) {
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }
    let match: RegExpMatchArray | null;
    if (req.method === "POST" && path === "/v1/customers") {
      const customer = { id: id("cus"), object: "customer", email: body.email ?? null, name: body.name ?? null, metadata: body.metadata ?? {} };
      customers.set(customer.id, customer);
      return send(res, 200, customer);
    }
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      if (body.customer && !customers.has(body.customer)) return notFound(res, `customer: '${body.customer}'`);
      const sessionId = id("cs");
      const amount = (body.line_items ?? []).reduce((sum: number, li: any) => sum + Number(li.price_data?.unit_amount ?? 0) * Number(li.quantity ?? 1), 0);
      const session = {
        id: sessionId,
        object: "checkout.session",
        mode: body.mode,
        customer: body.customer ?? null,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        line_items: body.line_items ?? [],
        amount_total: amount,
        amount_subtotal: amount,
        currency: body.line_items?.[0]?.price_data?.currency ?? null,
        status: "open",
        payment_status: "unpaid",
        subscription: null,
        payment_intent: null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        url: `${baseUrl}/pay/${sessionId}`,
      };
      sessions.set(sessionId, session);
      hidden.set(sessionId, { subscription_data: body.subscription_data });
      return send(res, 200, session);
    }
    if (req.method === "GET" && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = sessions.get(match[1]);
      return session ? send(res, 200, session) : notFound(res, `checkout.session: '${match[1]}'`);
    }
    if ((match = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const subscription = subscriptions.get(match[1]);
      if (!subscription) return notFound(res, `subscription: '${match[1]}'`);
      if (req.method === "GET") return send(res, 200, subscription);
      if (req.method === "DELETE") {
        subscription.status = "canceled";
        subscription.canceled_at = now();
        subscription.cancellation = { prorate: body.prorate ?? null, invoice_now: body.invoice_now ?? null };
        return send(res, 200, subscription);
      }
    }
    if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      if (!customers.has(body.customer)) return notFound(res, `customer: '${body.customer}'`);
      return send(res, 200, { id: id("bps"), object: "billing_portal.session", customer: body.customer, return_url: body.return_url, url: `${baseUrl}/portal/${body.customer}` });
    }
    return notFound(res, `route ${req.method} ${path}`);
  }

  /** The hosted pages a browser sees: checkout (pay or cancel) and the portal. */
  async function hosted(req: IncomingMessage, res: ServerResponse, path: string) {
    let match: RegExpMatchArray | null;
    if ((match = path.match(/^\/pay\/([^/]+)$/))) {
      const session = sessions.get(match[1]);
      if (!session) return notFound(res, "checkout page");
      if (req.method === "POST") {
        for (const event of fake.completeCheckout(session.id)) await fake.deliver(event);
        res.writeHead(303, { Location: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id) });
        return res.end();
      }
      const name = escapeHtml(String(session.line_items[0]?.price_data?.product_data?.name ?? "Scanroom"));
      const amount = (session.amount_total / 100).toFixed(2);
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html lang="en"><head><title>Fake Stripe Checkout</title><link rel="icon" href="data:,"></head><body>
<main><h1>Fake Stripe Checkout (test)</h1><p data-testid="fake-checkout-item">${name}: ${amount} ${escapeHtml(String(session.currency).toUpperCase())}</p>
<form method="post"><button type="submit">Pay</button></form><a href="${escapeHtml(session.cancel_url)}">Cancel</a></main></body></html>`);
    }
    if ((match = path.match(/^\/portal\/([^/]+)$/))) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html lang="en"><head><title>Fake Stripe billing portal</title><link rel="icon" href="data:,"></head><body><h1>Billing portal for ${escapeHtml(match[1])}</h1></body></html>`);
    }
    return notFound(res, "page");
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const text = await readBody(req);
      if (url.pathname.startsWith("/v1/")) {
        // GET and DELETE carry their parameters in the query string, POST in the form body.
        const body = { ...parseStripeForm(url.search.slice(1)), ...parseStripeForm(text) };
        requests.push({ method: req.method ?? "GET", path: url.pathname, body, idempotencyKey: (req.headers["idempotency-key"] as string) ?? null });
        return api(req, res, url.pathname, body);
      }
      return hosted(req, res, url.pathname);
    })().catch((error) => send(res, 500, { error: { type: "api_error", message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = baseUrl;
  return fake;
}
