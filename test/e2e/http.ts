/** A small JSON client for end-to-end tests: what curl would do, with status and headers kept. */
export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export function client(base: string, token?: string) {
  const call = async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> => {
    const res = await fetch(`${base}/api/v4${path}`, {
      method,
      headers: { ...(token ? { 'PRIVATE-TOKEN': token } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  };
  return {
    get: <T = any>(p: string, h?: Record<string, string>) => call<T>('GET', p, undefined, h),
    post: <T = any>(p: string, b: unknown = {}, h?: Record<string, string>) => call<T>('POST', p, b, h),
    put: <T = any>(p: string, b: unknown = {}, h?: Record<string, string>) => call<T>('PUT', p, b, h),
    delete: <T = any>(p: string, h?: Record<string, string>) => call<T>('DELETE', p, undefined, h),
  };
}
