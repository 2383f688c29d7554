import { bool, bytes, ConfigError, int, loadConfig, oneOf, port, secret, serviceSchema, str, url, variableNames } from '../src';

describe('loadConfig', () => {
  const schema = { A: str(), B: int(5, 1, 10), C: bool(false), D: oneOf(['x', 'y'] as const, 'x'), E: url(['http'], null), F: bytes(1024), P: port(80) };

  it('reads and types values', () => {
    const c = loadConfig(schema, { A: 'a', B: '7', C: 'TRUE', D: 'y', E: 'http://h', F: '2M', P: '8080' });
    expect(c).toEqual({ A: 'a', B: 7, C: true, D: 'y', E: 'http://h', F: 2 * 1024 * 1024, P: 8080 });
  });

  it('applies defaults', () => {
    expect(loadConfig(schema, { A: 'a' })).toEqual({ A: 'a', B: 5, C: false, D: 'x', E: undefined, F: 1024, P: 80 });
  });

  it.each([
    [{ B: '11' }, 'B="11" is invalid: expected an integer from 1 to 10'],
    [{ B: 'five' }, 'B="five" is invalid: expected an integer'],
    [{ C: 'maybe' }, 'C="maybe" is invalid'],
    [{ D: 'z' }, 'D="z" is invalid: expected one of x, y'],
    [{ E: 'ftp://h' }, 'E="ftp://h" is invalid: expected a URL with protocol http'],
    [{ E: 'not a url' }, 'E="not a url" is invalid'],
    [{ F: 'lots' }, 'F="lots" is invalid'],
    [{ P: '70000' }, 'P="70000" is invalid'],
  ])('fails fast on %j', (env, msg) => {
    expect(() => loadConfig(schema, { A: 'a', ...env })).toThrow(msg);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig(schema, { B: 'x', C: 'x' });
      throw new Error('should have thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as Error).message).toContain('A is required');
      expect((e as Error).message).toContain('B="x"');
      expect((e as Error).message).toContain('C="x"');
    }
  });

  it('names the variables a schema reads', () => {
    expect(variableNames(schema)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'P']);
  });
});

describe('secrets', () => {
  const schema = { ...serviceSchema, GATEWAY_PRIVATE_KEY: secret(32), CONAN_JWT_SECRET: secret() };
  const real = { INTERNAL_API_TOKEN: 'a3f9c1e07b2d4e68a1c0', CONAN_JWT_SECRET: 'b7e2d9f04a1c3e5b8d6f' };

  it('accepts real secrets and leaves a missing one to the process that needs it', () => {
    expect(loadConfig(schema, real)).toMatchObject(real);
    expect(loadConfig(schema, {}).INTERNAL_API_TOKEN).toBeUndefined();
  });

  it.each([
    [{ INTERNAL_API_TOKEN: 'change-me-internal-api-token' }, 'INTERNAL_API_TOKEN is a placeholder (such as change-me): set a real secret'],
    [{ CONAN_JWT_SECRET: 'change-me-conan-jwt-secret' }, 'CONAN_JWT_SECRET is a placeholder'],
    [{ GATEWAY_PRIVATE_KEY: 'change-me-gateway-private-key-pem' }, 'GATEWAY_PRIVATE_KEY is a placeholder'],
    [{ S3_SECRET_ACCESS_KEY: 'CHANGEME' }, 'S3_SECRET_ACCESS_KEY is a placeholder'],
    [{ INTERNAL_API_TOKEN: 'short-token' }, 'INTERNAL_API_TOKEN is too short: a secret needs at least 16 characters'],
    [{ DATABASE_URL: 'postgres://anvil:change-me@postgres:5432/anvil' }, 'DATABASE_URL has a placeholder password (such as change-me): set a real one'],
    [{ AMQP_URL: 'amqp://anvil:change-me@rabbitmq:5672' }, 'AMQP_URL has a placeholder password'],
  ])('refuses %j with a clear message that never repeats the value', (env, message) => {
    let error: unknown;
    try {
      loadConfig(schema, { ...real, ...env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain(Object.values(env)[0]);
  });
});
