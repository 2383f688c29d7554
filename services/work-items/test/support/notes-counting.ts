import { Made, NotesWorld } from './notes';

/**
 * `user_notes_count` under concurrency: 50 comments created at once, then 50 deleted at once,
 * through the app; the counter always equals the stored user notes.
 */
export async function checkConcurrentCounting(w: NotesWorld, made: Made, table: 'issues' | 'merge_requests'): Promise<void> {
  const counts = async () => {
    const row = await w.svc.deps.db(table).where({ id: made.id }).first('user_notes_count');
    const [{ n }] = await w.svc.deps.db('notes').where({ noteable_type: w.type, noteable_id: made.id, system: false }).count({ n: '*' });
    return { counter: row.user_notes_count as number, rows: Number(n) };
  };
  const created = await Promise.all(Array.from({ length: 50 }, (_, i) => w.on(w.guest).post(w.notes(made.ref)).send({ body: `comment ${i}` })));
  expect(created.map((r) => r.status)).toEqual(Array(50).fill(201));
  expect(await counts()).toEqual({ counter: 50, rows: 50 });
  const deleted = await Promise.all(created.map((r) => w.on(w.guest).delete(w.notes(made.ref, `/${r.body.id}`))));
  expect(deleted.map((r) => r.status)).toEqual(Array(50).fill(204));
  expect(await counts()).toEqual({ counter: 0, rows: 0 });
}
