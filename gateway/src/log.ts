import type { Logger } from '@anvil/http';

type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/**
 * The same JSON-lines logger as `@anvil/http`'s `createLogger`, without importing that package
 * (express, prom-client): the gateway stays small in memory and fast to start.
 */
export function createGatewayLogger(level: Level = 'info', base: Record<string, unknown> = {}): Logger {
  const min = ORDER[level] ?? ORDER.info;
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, svc: 'gateway', msg, ...base, ...fields });
    (lvl === 'error' ? process.stderr : process.stdout).write(line + '\n');
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (f) => createGatewayLogger(level, { ...base, ...f }),
  };
}
