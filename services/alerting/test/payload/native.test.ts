import { createHash } from 'node:crypto';
import { parseNative } from '../../src/payload/native';
import { NotifyRefusal } from '../../src/payload/refusal';

const now = new Date('2026-11-25T12:00:00Z');
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('native payload', () => {
  it('maps every attribute and keeps extra keys as details', () => {
    const a = parseNative({
      title: 'Disk full', description: 'd', start_time: '2026-11-25T10:00:00+02:00', service: 'db', monitoring_tool: 'probe', hosts: ['h1', 'h2'],
      severity: 'HIGH', fingerprint: 'fp', service_environment_name: 'production', runbook: 'https://rb', extra: { nested: [1, { x: true }] },
    }, now);
    expect(a).toEqual({
      title: 'Disk full', description: 'd', startedAt: new Date('2026-11-25T08:00:00Z'), endedAt: null, resolving: false, service: 'db',
      monitoringTool: 'probe', hosts: ['h1', 'h2'], severity: 'high', environment: 'production', fingerprint: sha1('fp'), incidentMarkdown: null,
      payload: expect.objectContaining({ title: 'Disk full' }), details: { runbook: 'https://rb', extra: { nested: [1, { x: true }] } },
    });
  });

  it('defaults: title `New: Alert`, start now, severity critical, a derived fingerprint', () => {
    const a = parseNative({}, now);
    expect(a).toMatchObject({ title: 'New: Alert', startedAt: now, severity: 'critical', hosts: [], resolving: false });
    expect(a.fingerprint).toBe(sha1('{}'));
    expect(parseNative({ title: '' }, now).title).toBe('New: Alert');
  });

  it.each([
    ['2026-11-25T11:00:00Z', new Date('2026-11-25T11:00:00Z')],
    [1764068400000, new Date(1764068400000)],
    ['not a time', null],
  ])('end_time %j resolves when it parses', (endTime, ended) => {
    const a = parseNative({ title: 't', end_time: endTime }, now);
    expect(a.endedAt).toEqual(ended);
    expect(a.resolving).toBe(ended !== null);
  });

  it('cuts text to GitLab’s lengths and hosts to 255 characters in all', () => {
    const a = parseNative({ title: 't'.repeat(300), description: 'd'.repeat(2000), service: 's'.repeat(200), hosts: ['a'.repeat(200), 'b'.repeat(100), 'c'] }, now);
    expect(a.title).toHaveLength(200);
    expect(a.description).toHaveLength(1000);
    expect(a.service).toHaveLength(100);
    expect(a.hosts).toEqual(['a'.repeat(200), 'b'.repeat(55)]);
    expect(parseNative({ hosts: 'single' }, now).hosts).toEqual(['single']);
    expect(parseNative({ title: 7, hosts: [1, [2, null]] }, now)).toMatchObject({ title: '7', hosts: ['1', '2'] });
  });

  it.each([[{ title: { a: 1 } }], [{ description: ['x'] }], [{ hosts: [{ a: 1 }] }], [{ severity: {} }]])('refuses wrong types %j (400)', (body) => {
    expect(() => parseNative(body, now)).toThrow(NotifyRefusal);
  });
});
