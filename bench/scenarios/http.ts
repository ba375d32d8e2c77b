/** Small JSON helpers for preparing benchmark state over the real API. */
export async function call<T>(baseUrl: string, method: 'GET' | 'POST', path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

export interface PageOfItems<T> {
  results: T[];
  total_count: number;
}
