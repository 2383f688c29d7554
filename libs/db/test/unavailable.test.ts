import knex from 'knex';
import { isDatabaseUnavailable } from '../src';

describe('isDatabaseUnavailable', () => {
  it('is true for a refused connection from the real driver, and for shutdown and connection SQLSTATEs', async () => {
    const db = knex({ client: 'pg', connection: { host: '127.0.0.1', port: 1, user: 'postgres', database: 'postgres' }, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 2000 });
    const err = await db.raw('select 1').catch((e: unknown) => e);
    await db.destroy();
    expect(isDatabaseUnavailable(err)).toBe(true);
    for (const code of ['57P01', '57P03', '08006', '53300']) expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('is false for errors of the statement or its data', () => {
    for (const code of ['23505', '22P02', '42P01', '23503']) expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(false);
    expect(isDatabaseUnavailable(new SyntaxError('Unexpected token'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
