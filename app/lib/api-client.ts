/**
 * The browser's client for the /v1 API (SPEC §7): JSON bodies for every method but GET, a bearer
 * ID token when signed in, and the `data` field of a 200 answer; anything else raises ApiError.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type TokenSource = () => Promise<string | null>;

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
}

export function createApiClient({ baseUrl = "/v1", getToken }: { baseUrl?: string; getToken: TokenSource }) {
  return async function api<T>(path: string, request: ApiRequest = {}): Promise<T> {
    const method = request.method ?? "GET";
    const url = new URL(`${baseUrl}${path}`, window.location.origin);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value)); // undefined filters skipped
    }
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    const token = await getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(url, {
      method,
      headers,
      body: method === "GET" ? undefined : JSON.stringify(request.body ?? {}),
    });
    let payload: { status?: number; data?: T; error?: string; message?: string } | null = null;
    try {
      payload = await response.json();
    } catch {
      payload = null;
    }
    if (response.status === 200 && payload?.status === 200) return payload.data as T;
    if (response.status === 401 && path === "/user") throw new ApiError(401, payload?.error ?? "unauthorized", "Email not verified");
    throw new ApiError(
      payload?.status ?? response.status,
      payload?.error ?? "http_error",
      payload?.message ?? `Request failed with status ${response.status}`,
    );
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
