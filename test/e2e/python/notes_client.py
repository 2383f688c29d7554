"""python-gitlab (Debian python3-gitlab) against Anvil's notes: comment on an issue, a merge request,
an epic and a snippet, list, read, edit through save(), delete; a guest's internal note stays public;
a note with quick actions; the system note an assignee change writes.
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os
import sys

import gitlab
from gitlab.exceptions import GitlabGetError

url = os.environ["ANVIL_URL"]
dev = gitlab.Gitlab(url, private_token=os.environ["DEV_TOKEN"])
guest = gitlab.Gitlab(url, private_token=os.environ["GUEST_TOKEN"])
pid = int(os.environ["PROJECT_ID"])
gid = int(os.environ["GROUP_ID"])
out = {}

project = dev.projects.get(pid, lazy=True)
issue = project.issues.create({"title": "Py noted"})
first = issue.notes.create({"body": "Py first"})
staff = issue.notes.create({"body": "Py staff only", "internal": True})
first.body = "Py first, edited"
first.save()
out["issue_notes"] = [(n.body, n.internal, n.noteable_iid) for n in issue.notes.list(sort="asc", get_all=True)]
out["read"] = issue.notes.get(first.id).body
as_guest = guest.projects.get(pid, lazy=True).issues.get(issue.iid, lazy=True)
out["guest_sees"] = [n.body for n in as_guest.notes.list(get_all=True)]
try:
    as_guest.notes.get(staff.id)
    out["guest_internal"] = "no error"
except GitlabGetError as e:
    out["guest_internal"] = e.response_code
out["guest_internal_flag"] = as_guest.notes.create({"body": "Py guest", "internal": True}).internal
issue.notes.delete(first.id)
out["after_delete"] = sorted(n.body for n in issue.notes.list(get_all=True))
out["user_notes_count"] = project.issues.get(issue.iid).user_notes_count

mr = project.mergerequests.create({"source_branch": "py-notes", "target_branch": "main", "title": "Py MR"})
mr.notes.create({"body": "Py MR note"})
out["mr_notes"] = [(n.body, n.noteable_type, n.noteable_iid) for n in mr.notes.list(get_all=True)]

epic = dev.groups.get(gid, lazy=True).epics.create({"title": "Py epic"})
epic.notes.create({"body": "Py epic note"})
out["epic_notes"] = [(n.body, n.noteable_type, n.noteable_id == epic.id, n.project_id) for n in epic.notes.list(get_all=True)]

snip = project.snippets.create({"title": "Py snip", "file_name": "a.txt", "content": "x", "visibility": "private"})
sn = snip.notes.create({"body": "Py snippet note"})
sn.body = "Py snippet note, edited"
sn.save()
out["snippet_notes"] = [(n.body, n.noteable_type) for n in snip.notes.list(get_all=True)]
snip.notes.delete(sn.id)
out["snippet_after_delete"] = [n.body for n in snip.notes.list(get_all=True)]

dev.auth()
quick = project.issues.create({"title": "Py quick"})
quick.notes.create({"body": "Closing this\n/close\n/estimate 1h"})
quick = project.issues.get(quick.iid)
out["quick"] = [quick.state, quick.time_stats()["time_estimate"]]
quick.assignee_ids = [dev.user.id]
quick.save()
out["system_notes"] = [n.body for n in quick.notes.list(activity_filter="only_activity", sort="asc", get_all=True)]
out["comments"] = [n.body for n in quick.notes.list(activity_filter="only_comments", get_all=True)]

print(json.dumps(out))
sys.exit(0)
