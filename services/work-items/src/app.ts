import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { mountAwardEmoji } from './routes/award-emoji';
import { mountEpics } from './routes/epics';
import { mountIssueLists } from './routes/issue-lists';
import { mountLabels } from './routes/labels';
import { mountMergeRequests } from './routes/merge-requests';
import { mountMilestones } from './routes/milestones';
import { mountNotes } from './routes/notes';
import { notesLimiterFor } from './notes/rate-limit';
import { mountProjectIssues } from './routes/project-issues';
import { mountProjectSnippets } from './routes/project-snippets';
import { mountSubscriptions } from './routes/subscriptions';
import { mountTimeTracking } from './routes/time-tracking';
import { mountTodos } from './routes/todos';

/** Builds the work-items service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const routeDeps = { db: deps.db };
  const notesLimiter = notesLimiterFor(deps);
  return serviceApp(deps, {
    api: (router) => {
      mountIssueLists(router, routeDeps);
      mountProjectIssues(router, routeDeps);
      mountLabels(router, routeDeps);
      mountAwardEmoji(router, routeDeps);
      mountEpics(router, routeDeps);
      mountSubscriptions(router, routeDeps);
      mountTodos(router, routeDeps);
      mountTimeTracking(router, routeDeps);
      mountNotes(router, routeDeps, notesLimiter);
      mountMergeRequests(router, routeDeps);
      mountMilestones(router, routeDeps);
      mountProjectSnippets(router, routeDeps);
    },
  });
}
