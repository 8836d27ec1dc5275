/** A tiny HTTP client for the /v1 API in tests: returns status and parsed body, never throws. */
export function apiClient(baseUrl: string) {
  return async function request(
    method: string,
    path: string,
    { token, body, rawBody, headers }: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) {
    const response = await fetch(`${baseUrl}/v1${path}`, {
      method,
      headers: {
        ...(body !== undefined || rawBody !== undefined ? { "Content-Type": "application/json" } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: response.status, json, headers: response.headers };
  };
}
