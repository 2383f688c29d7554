"""python-gitlab (Debian python3-gitlab) against Anvil's issues: create, list with filters, walk
every page through Link, close via state_event, subscribe twice, to-do twice, time tracking.
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os
import sys

import gitlab
from gitlab.exceptions import GitlabSubscribeError, GitlabTodoError

url = os.environ["ANVIL_URL"]
dev = gitlab.Gitlab(url, private_token=os.environ["DEV_TOKEN"])
rep = gitlab.Gitlab(url, private_token=os.environ["REPORTER_TOKEN"])
pid = int(os.environ["PROJECT_ID"])
gid = int(os.environ["GROUP_ID"])
reporter_id = int(os.environ["REPORTER_ID"])
out = {}

project = dev.projects.get(pid, lazy=True)
issue = project.issues.create({"title": "Py login bug", "description": "- [x] one\n- [ ] two",
                               "labels": ["bug", "ui"], "assignee_ids": [reporter_id]})
out["created"] = {"iid": issue.iid, "labels": issue.labels, "assignees": [a["id"] for a in issue.assignees],
                  "tasks": issue.task_completion_status}
for n in range(5):
    project.issues.create({"title": "Py bulk %d" % n, "labels": ["bulk"]})

found = project.issues.list(labels=["bug", "ui"], iids=[issue.iid], assignee_id=reporter_id)
out["filtered"] = [i.iid for i in found]
out["unassigned_bulk"] = len(project.issues.list(labels="bulk", assignee_id="None", get_all=True))
walked = project.issues.list(labels="bulk", per_page=2, get_all=True)
out["walked"] = sorted(i.title for i in walked)
it = project.issues.list(labels="bulk", per_page=2, iterator=True)
out["iterator"] = {"total": it.total, "total_pages": it.total_pages, "count": len(list(it))}
out["global_search"] = [i.title for i in dev.issues.list(scope="all", search="login", **{"in": "title"})]

issue.state_event = "close"
issue.save()
out["closed_state"] = project.issues.get(issue.iid).state
out["group_closed"] = [i.title for i in dev.groups.get(gid, lazy=True).issues.list(state="closed")]

mine = rep.projects.get(pid, lazy=True).issues.get(issue.iid)
mine.unsubscribe()
mine.subscribe()
try:
    mine.subscribe()
    out["second_subscribe"] = "no error"
except GitlabSubscribeError as e:
    out["second_subscribe"] = e.response_code
mine.todo()
try:
    mine.todo()
    out["second_todo"] = "no error"
except GitlabTodoError as e:
    out["second_todo"] = e.response_code
out["todos"] = [t.body for t in rep.todos.list()]

tracked = project.issues.get(issue.iid)
est = tracked.time_estimate("3h30m")
spent = tracked.add_spent_time("1h15m")
stats = project.issues.get(issue.iid, lazy=True).time_stats()
out["time"] = {"estimate": est["human_time_estimate"], "spent": spent["human_total_time_spent"], "stats": stats}
tracked.reset_time_estimate()
tracked.reset_spent_time()
out["time_reset"] = project.issues.get(issue.iid).attributes["time_stats"]

print(json.dumps(out))
sys.exit(0)
