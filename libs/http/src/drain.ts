import type http from 'node:http';

/**
 * Closes `server` gracefully: it stops listening at once, idle keep-alive connections are closed
 * (and each other connection once its answer is out), requests in flight get `graceMs` before every
 * connection left is cut.
 */
export async function drain(server: http.Server, graceMs: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
    if (graceMs <= 0) server.closeAllConnections();
  });
}
