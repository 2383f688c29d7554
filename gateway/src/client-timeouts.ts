import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Cuts a request body that stalls. When no byte of it arrives for `ms`, `onStall` answers (the gateway's
 * 408), then the connection closes. This is nginx's `client_body_timeout`, which stands in front of
 * GitLab. The server has no overall request timeout (a 1 GB upload may take long), so without this
 * a stalled upload would hold its socket, a file descriptor and a partly stored body for ever.
 *
 * Only the client's silence counts:
 * - The clock starts when the body may flow: at once, or for a client that waits for `100 Continue`
 *   when it gets it.
 * - It does not run while received bytes wait for the gateway (backpressure from storage or from the
 *   upstream): the socket is idle then because the gateway stopped reading.
 * - It stops once the body is in. Waiting for the upstream's answer is `UPSTREAM_TIMEOUT_MS`'s
 *   business, and an idle kept connection `keepAliveTimeout`'s.
 */
export function watchBody(req: IncomingMessage, res: ServerResponse, ms: number, onStall: () => void): void {
  if (ms <= 0) return;
  const socket = req.socket;
  const stop = () => {
    res.off('timeout', check);
    // once the answer has started, the socket's timeout is the answer's (`cutWhenStalled`, then Node's
    // keep-alive timeout): left alone
    if (!res.headersSent) socket.setTimeout(0);
  };
  // Node's server emits a socket's timeout on its current response; a listener there keeps Node
  // from destroying the socket itself
  const check = () => {
    if (req.complete || res.writableEnded) return stop();
    // bytes the gateway has not read yet: the wait is the gateway's, not the client's
    if (req.readableLength > 0) return void socket.setTimeout(ms);
    stop();
    onStall();
    // the body ends here, as one the client abandoned: whoever reads it sees it fail, never end.
    // Destroying the request closes the connection; the short answer is already written to it.
    req.destroy(new Error('request body timed out'));
  };
  const start = () => {
    if (req.complete) return;
    socket.setTimeout(ms);
    res.on('timeout', check);
    req.once('end', stop);
  };
  if (req.headers.expect?.toLowerCase() !== '100-continue') return start();
  // the body starts once the gateway sends `100 Continue` (from wherever it decides to)
  const writeContinue = res.writeContinue.bind(res);
  res.writeContinue = (cb?: () => void) => {
    writeContinue(cb);
    start();
  };
}

/**
 * Destroys `res` once bytes of it have waited `ms` for the client to take them, as nginx's
 * `send_timeout` (the time between two successive writes that the client holds up): a reader that
 * stopped holds no descriptor, stream or upstream request for ever. The upstream taking its time
 * between two parts of the answer is not the client's doing and is left to `UPSTREAM_TIMEOUT_MS`.
 * Called once the answer has started (the proxy: at its first write the client holds up); when it is
 * finished, Node's keep-alive timeout replaces this one.
 */
export function cutWhenStalled(res: ServerResponse, ms: number): void {
  const socket = res.socket;
  if (ms <= 0 || !socket) return;
  socket.setTimeout(ms);
  // a listener on the response keeps Node's server from destroying the socket itself
  res.on('timeout', () => {
    if (res.writableLength > 0 || socket.writableLength > 0) res.destroy(new Error('the client took nothing of the answer'));
    else socket.setTimeout(ms);
  });
}
