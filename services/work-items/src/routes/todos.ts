import type { Router } from 'express';
import type { Knex } from 'knex';
import { ctx, NotFoundError, p, paginate, params, UnauthorizedError } from '@anvil/http';
import { projectContext } from '../access/project-context';
import { toProjectIdentity, toTodo } from '../entities/todo';
import { findReadableIssue } from '../issues/issue-access';
import { findIssuesByIds } from '../issues/issue-store';
import { groupsByIds, projectsByIds, ProjectRow, usersByIds } from '../read-model/store';
import { markDone, markIssueTodo, Todo, todoFromRow, TodoRow } from '../todos/todo-store';
import { TodosFinder } from '../todos/todos-finder';
import type { RouteDeps } from './deps';
import { presentIssues } from './present';

const iidParam = params({ issue_iid: p.integer().required() });
const listParams = params({
  action: p.enum(['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required', 'unmergeable', 'directly_addressed', 'merge_train_removed', 'member_access_requested'] as const),
  author_id: p.integer(), project_id: p.integer(), group_id: p.integer(),
  state: p.enum(['pending', 'done', 'all'] as const).default('pending'),
  type: p.enum(['Issue', 'MergeRequest', 'Commit', 'Epic', 'DesignManagement::Design', 'AlertManagement::Alert'] as const),
});
const idParam = params({ id: p.integer().required() });

async function nameWithNamespace(db: Knex, projects: ProjectRow[]): Promise<Map<number, string>> {
  const groups = await groupsByIds(db, projects.flatMap((pr) => pr.group_traversal_ids));
  return new Map(projects.map((pr) => {
    const ns = pr.group_traversal_ids.length ? pr.group_traversal_ids.map((g) => groups.get(g)?.name ?? '') : [pr.path_with_namespace.split('/')[0]];
    return [pr.id, [...ns, pr.name].join(' / ')];
  }));
}

/** Serialises a page of to-dos with their issues, projects and authors loaded in batches. */
async function present(db: Knex, base: string, todos: Todo[]): Promise<Record<string, unknown>[]> {
  const issues = await findIssuesByIds(db, todos.filter((t) => t.targetType === 'Issue').map((t) => t.targetId));
  const shown = await presentIssues(db, issues, { base, origin: { kind: 'none' } });
  const byId = new Map(shown.map((i) => [i.id as number, i]));
  const projects = await projectsByIds(db, todos.map((t) => t.projectId as number).filter(Boolean));
  const names = await nameWithNamespace(db, [...projects.values()]);
  const users = await usersByIds(db, todos.map((t) => t.authorId));
  return todos.map((t) => {
    const target = byId.get(t.targetId) ?? null;
    const project = t.projectId ? projects.get(t.projectId) : undefined;
    return toTodo(t, {
      project: project ? toProjectIdentity(project, names.get(project.id) ?? project.name) : null,
      author: users.get(t.authorId),
      target,
      targetUrl: (target?.web_url as string) ?? '',
    });
  });
}

/** GitLab's to-dos: create one on an issue (304 when pending already), list, mark done. */
export function mountTodos(router: Router, { db }: RouteDeps): void {
  // POST /projects/:id/issues/:issue_iid/todo
  router.post('/projects/:id/issues/:issue_iid/todo', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    const { issue_iid } = iidParam.parse(req);
    const pc = await projectContext(db, c, true);
    const issue = await findReadableIssue(db, pc, issue_iid);
    const todo = await markIssueTodo(db, issue, c.user.id);
    res.status(201).json((await present(db, pc.base, [todo]))[0]);
  });

  // GET /todos
  router.get('/todos', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    const f = listParams.parse(req);
    const finder = new TodosFinder(db, c.user.id, { state: f.state, action: f.action, projectId: f.project_id, groupId: f.group_id, authorId: f.author_id, type: f.type });
    const page = await paginate<TodoRow>(req, finder.execute());
    res.set(page.headers).json(await present(db, c.base.replace(/\/$/, ''), page.items.map(todoFromRow)));
  });

  // POST /todos/:id/mark_as_done
  router.post('/todos/:id/mark_as_done', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    const { id } = idParam.parse(req);
    const todo = await markDone(db, c.user.id, id);
    if (!todo) throw new NotFoundError('Todo');
    res.status(201).json((await present(db, c.base.replace(/\/$/, ''), [todo]))[0]);
  });

  // POST /todos/mark_as_done
  router.post('/todos/mark_as_done', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    await markDone(db, c.user.id);
    res.status(204).end();
  });
}
