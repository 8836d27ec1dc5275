import { describe, expect, it } from "vitest";
import { stripeApiBaseOptions } from "./stripe.server";

describe("stripeApiBaseOptions", () => {
  it("turns an API base URL into the Stripe client's host, port and protocol options", () => {
    expect(stripeApiBaseOptions("http://127.0.0.1:12111")).toEqual({ host: "127.0.0.1", port: 12111, protocol: "http" });
    expect(stripeApiBaseOptions("https://stripe-mock.internal")).toEqual({ host: "stripe-mock.internal", port: 443, protocol: "https" });
    expect(stripeApiBaseOptions("http://localhost")).toEqual({ host: "localhost", port: 80, protocol: "http" });
    expect(stripeApiBaseOptions(undefined)).toEqual({});
  });
});
