import { bool, bytes, ConfigError, int, loadConfig, oneOf, port, str, url, variableNames } from '../src';

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
