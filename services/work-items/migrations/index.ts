import type { Migration } from '@anvil/db';
import * as createOutbox from './20261122000000_create_outbox';
import * as createReadModels from './20261122000100_create_read_models';
import * as createIssues from './20261122000200_create_issues';
import * as createIssueActivity from './20261122000300_create_issue_activity';
import * as createMergeRequests from './20261122000400_create_merge_requests';
import * as addIssueListIndexes from './20261122000500_add_issue_list_indexes';
import * as createSnippets from './20261125000100_create_snippets';
import * as extendNotes from './20261125000200_extend_notes';
import * as listIndexes from './20261125000300_list_indexes';
import * as filteredListIndexes from './20261125000400_filtered_list_indexes';
import * as createGroupLinks from './20261125000500_create_group_links';
import * as issueFilterIndexes from './20261126000100_issue_filter_indexes';
import * as alertIncidents from './20261126000300_alert_incidents';
import * as createProjectGroupLinks from './20261127000100_create_project_group_links';
import * as createIssueFilterCounts from './20261127000200_create_issue_filter_counts';
import * as countIssueMilestones from './20261127000300_count_issue_milestones';

/** This service's migrations, in order. */
export const migrations: Migration[] = [
  { name: '20261122000000_create_outbox', ...createOutbox },
  { name: '20261122000100_create_read_models', ...createReadModels },
  { name: '20261122000200_create_issues', ...createIssues },
  { name: '20261122000300_create_issue_activity', ...createIssueActivity },
  { name: '20261122000400_create_merge_requests', ...createMergeRequests },
  { name: '20261122000500_add_issue_list_indexes', ...addIssueListIndexes },
  { name: '20261125000100_create_snippets', ...createSnippets },
  { name: '20261125000200_extend_notes', ...extendNotes },
  { name: '20261125000300_list_indexes', ...listIndexes },
  { name: '20261125000400_filtered_list_indexes', ...filteredListIndexes },
  { name: '20261125000500_create_group_links', ...createGroupLinks },
  { name: '20261126000100_issue_filter_indexes', ...issueFilterIndexes },
  { name: '20261126000300_alert_incidents', ...alertIncidents },
  { name: '20261127000100_create_project_group_links', ...createProjectGroupLinks },
  { name: '20261127000200_create_issue_filter_counts', ...createIssueFilterCounts },
  { name: '20261127000300_count_issue_milestones', ...countIssueMilestones },
];
