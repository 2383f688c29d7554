import { createHash } from 'node:crypto';
import { NotifyRefusal } from '../../src/payload/refusal';
import { isWebhookPayload, parseWebhook, parseWebhookAlert } from '../../src/payload/webhook';
import { amMessage, firing } from '../support/payloads';

const now = new Date('2026-11-25T12:00:00Z');
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('webhook format', () => {
  it('is chosen by shape: every required key and version "4"', () => {
    expect(isWebhookPayload(amMessage([]))).toBe(true);
    expect(isWebhookPayload({ ...amMessage([]), version: 4 })).toBe(false);
    const { groupKey: _g, ...missing } = amMessage([]);
    expect(isWebhookPayload(missing)).toBe(false);
  });

  it('maps an Alertmanager alert', () => {
    expect(parseWebhookAlert(firing, now)).toEqual({
      title: 'CPU usage high on host-a', description: 'idle below 10%', startedAt: new Date('2026-11-22T00:55:23.208Z'), endedAt: null, resolving: false,
      service: null, monitoringTool: 'Prometheus', hosts: [], severity: 'high', environment: 'production',
      fingerprint: sha1('2026-11-22T00:55:23.208Z/CPU usage high on host-a/rate(node_cpu_seconds_total{mode="idle"}[5m]) < 0.1'),
      incidentMarkdown: '**look**', payload: firing, details: { runbook: 'https://runbooks.example/cpu', summary: 'CPU summary' },
    });
  });

  it('takes the title from title, summary, then alertname', () => {
    expect(parseWebhookAlert({ ...firing, annotations: { summary: 'S' } }, now)?.title).toBe('S');
    expect(parseWebhookAlert({ ...firing, annotations: {} }, now)?.title).toBe('AccHighCpu');
  });

  it('reads nanosecond and offset timestamps, hashing them as sent', () => {
    const a = parseWebhookAlert({ ...firing, startsAt: '2026-11-22T02:50:00.123456789+02:00' }, now)!;
    expect(a.startedAt).toEqual(new Date('2026-11-22T00:50:00.123Z'));
    expect(a.fingerprint).toBe(sha1('2026-11-22T02:50:00.123456789+02:00/CPU usage high on host-a/rate(node_cpu_seconds_total{mode="idle"}[5m]) < 0.1'));
  });

  it.each([
    [{ status: 'resolved', endsAt: '2026-11-25T11:00:00Z' }, true],
    [{ status: 'resolved' }, true],
    [{ status: 'firing', endsAt: '2026-11-25T11:59:59Z' }, true],
    [{ status: 'firing', endsAt: '2026-11-25T13:00:00Z' }, false],
    [{ status: 'firing', endsAt: '0001-01-01T00:00:00Z' }, false],
  ])('%j resolves: %s', (change, resolving) => {
    expect(parseWebhookAlert({ ...firing, ...change }, now)?.resolving).toBe(resolving);
  });

  it('leaves out elements without a title or startsAt', () => {
    const alerts = parseWebhook(amMessage([firing, { ...firing, startsAt: undefined }, { labels: {}, annotations: {}, startsAt: 'x' }]), now);
    expect(alerts).toHaveLength(1);
  });

  it.each([
    ['alerts not an array', { ...amMessage([]), alerts: {} }],
    ['101 alerts', amMessage(Array.from({ length: 101 }, () => firing))],
    ['an element not an object', amMessage(['x'])],
    ['labels not an object', amMessage([{ ...firing, labels: 'x' }])],
    ['an annotation holding an object', amMessage([{ ...firing, annotations: { title: 't', x: { y: 1 } } }])],
  ])('refuses %s (400)', (_what, body) => {
    expect(() => parseWebhook(body, now)).toThrow(NotifyRefusal);
  });

  it('takes 100 alerts', () => {
    expect(parseWebhook(amMessage(Array.from({ length: 100 }, () => firing)), now)).toHaveLength(100);
  });
});
