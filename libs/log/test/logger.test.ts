import { createLogger, scrubUrl } from '../src';
import { memoryDestination } from '../src';

describe('createLogger', () => {
  it('writes one JSON line per call: level, ISO time, svc, the fields and msg', () => {
    const out = memoryDestination();
    createLogger('work-items', 'info', { destination: out.stream }).info('listening', { port: 7103 });
    expect(out.text().endsWith('\n')).toBe(true);
    const [line] = out.lines();
    expect(line).toEqual({ level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), svc: 'work-items', port: 7103, msg: 'listening' });
    expect(Object.keys(line)).toEqual(['level', 'time', 'svc', 'port', 'msg']);
  });

  it('keeps LOG_LEVEL’s meaning: lines below the level are dropped, silent drops all, an unknown level is info', () => {
    const at = (level: string) => {
      const out = memoryDestination();
      const log = createLogger('s', level, { destination: out.stream });
      log.debug('d');
      log.info('i');
      log.warn('w');
      log.error('e');
      return out.lines().map((l) => l.level);
    };
    expect(at('debug')).toEqual(['debug', 'info', 'warn', 'error']);
    expect(at('info')).toEqual(['info', 'warn', 'error']);
    expect(at('warn')).toEqual(['warn', 'error']);
    expect(at('error')).toEqual(['error']);
    expect(at('silent')).toEqual([]);
    expect(at('loud')).toEqual(['info', 'warn', 'error']);
  });

  it('adds a child’s fields to each of its lines, not to its parent’s', () => {
    const out = memoryDestination();
    const log = createLogger('s', 'info', { destination: out.stream });
    const child = log.child({ rid: 'abc' });
    child.info('one');
    child.child({ user: 7 }).warn('two', { n: 1 });
    log.info('three');
    expect(out.lines().map(({ rid, user, n, msg }) => ({ rid, user, n, msg }))).toEqual([
      { rid: 'abc', user: undefined, n: undefined, msg: 'one' },
      { rid: 'abc', user: 7, n: 1, msg: 'two' },
      { rid: undefined, user: undefined, n: undefined, msg: 'three' },
    ]);
  });
});

describe('redaction', () => {
  it('censors credential headers, whatever their case, down to three levels', () => {
    const out = memoryDestination();
    const log = createLogger('s', 'info', { destination: out.stream });
    const headers = { 'private-token': 'glpat-secret2', Authorization: 'Bearer secret3', accept: '*/*' };
    log.warn('headers', { 'PRIVATE-TOKEN': 'glpat-secret1', req: { headers }, list: [{ 'Job-Token': 'secret4' }], a: { b: { c: { d: { token: 'deep' } } } } });
    const [line] = out.lines();
    expect(line['PRIVATE-TOKEN']).toBe('[REDACTED]');
    expect(line.req).toEqual({ headers: { 'private-token': '[REDACTED]', Authorization: '[REDACTED]', accept: '*/*' } });
    expect(line.list).toEqual([{ 'Job-Token': '[REDACTED]' }]);
    expect(out.text()).not.toMatch(/secret/);
    // below three levels keys are not looked at (a bound on the work per line)
    expect(line.a).toEqual({ b: { c: { d: { token: 'deep' } } } });
    expect(headers['private-token']).toBe('glpat-secret2');
  });

  it('censors password and token fields, also in a child’s fields, and leaves the logged object as it was', () => {
    const out = memoryDestination();
    const log = createLogger('s', 'info', { destination: out.stream });
    const body = { username: 'dave', password: 'Sup3r-secret-pw!', user: { password: 'another-secret' } };
    log.child({ token: 'secret-token' }).info('user created', body);
    expect(out.lines()[0]).toMatchObject({ username: 'dave', password: '[REDACTED]', user: { password: '[REDACTED]' }, token: '[REDACTED]' });
    expect(out.text()).not.toMatch(/secret/i);
    expect(body.password).toBe('Sup3r-secret-pw!');
  });

  it('censors private_token, access_token and job_token values in a logged path or url', () => {
    const out = memoryDestination();
    const log = createLogger('s', 'info', { destination: out.stream });
    const fields = { path: '/api/v4/projects?private_token=glpat-abc&per_page=5', url: 'http://x/api/v4/jobs?job_token=def' };
    log.error('unhandled error', fields);
    expect(out.lines()[0]).toMatchObject({ path: '/api/v4/projects?private_token=[REDACTED]&per_page=5', url: 'http://x/api/v4/jobs?job_token=[REDACTED]' });
    expect(fields.path).toContain('glpat-abc');
  });

  it.each([
    ['/api/v4/user', '/api/v4/user'],
    ['/api/v4/user?private_token=abc', '/api/v4/user?private_token=[REDACTED]'],
    ['/a?x=1&access_token=abc#top', '/a?x=1&access_token=[REDACTED]#top'],
    ['/a?PRIVATE_TOKEN=abc&job_token=def', '/a?PRIVATE_TOKEN=[REDACTED]&job_token=[REDACTED]'],
    ['/a?my_private_token=abc', '/a?my_private_token=abc'],
  ])('scrubUrl(%s) is %s', (url, expected) => {
    expect(scrubUrl(url)).toBe(expected);
  });
});
