import type { Knex } from 'knex';
import {
  emit, EpicEvents, EpicEventV1, LabelEvents, LabelEventV1, MergeRequestEvents, MergeRequestEventV1,
  MilestoneEvents, MilestoneEventV1, SubscriptionEvents, SubscriptionEventV1, TodoEvents, TodoEventV1,
} from '@anvil/events';
import type { Epic } from '../epics/epic-store';
import type { Label } from '../labels/label-store';
import type { MergeRequest } from '../merge-requests/merge-request-store';
import type { Milestone } from '../milestones/milestone-store';
import type { Todo } from '../todos/todo-row';
import { timestamps } from '../entities/timestamps';
import { PRODUCER } from './issue-events';

type Trx = Knex.Transaction;
type TypeOf<E> = E[keyof E];

/** Writes `work-items.label.*` for a label to the outbox in the caller's transaction. */
export async function emitLabelEvent(trx: Trx, type: TypeOf<typeof LabelEvents>, l: Label, actorId: number | null): Promise<void> {
  const data: LabelEventV1 = {
    id: l.id, title: l.title, color: l.color, description: l.description, priority: l.priority, project_id: l.projectId, group_id: l.groupId, actor_id: actorId,
  };
  await emit(trx, PRODUCER, type, data);
}

/** Writes `work-items.milestone.*` for a milestone to the outbox in the caller's transaction. */
export async function emitMilestoneEvent(trx: Trx, type: TypeOf<typeof MilestoneEvents>, m: Milestone, actorId: number | null): Promise<void> {
  const data: MilestoneEventV1 = {
    id: m.id, iid: m.iid, project_id: m.projectId, group_id: m.groupId, title: m.title, description: m.description, state: m.state,
    due_date: m.dueDate, start_date: m.startDate, actor_id: actorId,
  };
  await emit(trx, PRODUCER, type, data);
}

/** Writes `work-items.todo.*` for a to-do to the outbox in the caller's transaction. */
export async function emitTodoEvent(trx: Trx, type: TypeOf<typeof TodoEvents>, t: Todo): Promise<void> {
  const data: TodoEventV1 = {
    id: t.id, user_id: t.userId, project_id: t.projectId, group_id: t.groupId, author_id: t.authorId, target_type: t.targetType, target_id: t.targetId,
    action: t.action, state: t.state,
  };
  await emit(trx, PRODUCER, type, data);
}

/** Writes `work-items.subscription.updated` to the outbox in the caller's transaction. */
export async function emitSubscriptionEvent(trx: Trx, data: SubscriptionEventV1): Promise<void> {
  await emit(trx, PRODUCER, SubscriptionEvents.updated, data);
}

/** Writes `work-items.merge_request.*` for a merge request to the outbox in the caller's transaction. */
export async function emitMergeRequestEvent(trx: Trx, type: TypeOf<typeof MergeRequestEvents>, mr: MergeRequest, actorId: number | null): Promise<void> {
  const data: MergeRequestEventV1 = {
    id: mr.id, iid: mr.iid, project_id: mr.projectId, title: mr.title, description: mr.description, state: mr.state,
    source_branch: mr.sourceBranch, target_branch: mr.targetBranch, author_id: mr.authorId, milestone_id: mr.milestoneId, draft: mr.draft,
    ...timestamps(mr), closed_at: mr.closedAt ? mr.closedAt.toISOString() : null, merged_at: mr.mergedAt ? mr.mergedAt.toISOString() : null, actor_id: actorId,
  };
  await emit(trx, PRODUCER, type, data);
}

/** Writes `work-items.epic.created` for an epic to the outbox in the caller's transaction. */
export async function emitEpicCreated(trx: Trx, e: Epic, actorId: number | null): Promise<void> {
  const data: EpicEventV1 = {
    id: e.id, iid: e.iid, group_id: e.groupId, title: e.title, description: e.description, state: e.state, confidential: e.confidential, author_id: e.authorId, actor_id: actorId,
  };
  await emit(trx, PRODUCER, EpicEvents.created, data);
}

export { LabelEvents, MergeRequestEvents, MilestoneEvents, TodoEvents };
