"""python-gitlab (Debian python3-gitlab) against Anvil's award emoji: award an issue with an alias,
read it anonymously, award a note and a merge request, refuse a duplicate (404) and another's
delete (401), then delete as the awarder. Prints one JSON line with what it saw."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabAuthenticationError, GitlabCreateError

url = os.environ["ANVIL_URL"]
pid = int(os.environ["PROJECT_ID"])
dev = gitlab.Gitlab(url, private_token=os.environ["DEV_TOKEN"])
guest = gitlab.Gitlab(url, private_token=os.environ["GUEST_TOKEN"])
anon = gitlab.Gitlab(url)
out = {}

issue = dev.projects.get(pid, lazy=True).issues.create({"title": "Py emoji"})
mine = guest.projects.get(pid, lazy=True).issues.get(issue.iid, lazy=True)
award = mine.awardemojis.create({"name": "+1"})
out["awarded"] = {"name": award.name, "awardable_type": award.awardable_type, "user": award.user["username"]}
out["upvotes"] = dev.projects.get(pid, lazy=True).issues.get(issue.iid).upvotes
out["anonymous"] = [a.name for a in anon.projects.get(pid, lazy=True).issues.get(issue.iid, lazy=True).awardemojis.list()]
try:
    mine.awardemojis.create({"name": "thumbsup"})
except GitlabCreateError as e:
    out["duplicate"] = [e.response_code, e.error_message]

note = issue.notes.create({"body": "nice"})
on_note = guest.projects.get(pid, lazy=True).issues.get(issue.iid, lazy=True).notes.get(note.id, lazy=True)
on_note.awardemojis.create({"name": "tada"})
out["note"] = [(a.name, a.awardable_type) for a in on_note.awardemojis.list()]

try:
    issue.awardemojis.delete(award.id)
except GitlabAuthenticationError as e:
    out["foreign_delete"] = e.response_code
mine.awardemojis.delete(award.id)
out["after_delete"] = [a.name for a in mine.awardemojis.list()]

mr = dev.projects.get(pid, lazy=True).mergerequests.create({"source_branch": "py-emoji", "target_branch": "main", "title": "Py MR"})
guest.projects.get(pid, lazy=True).mergerequests.get(mr.iid, lazy=True).awardemojis.create({"name": "thumbsdown"})
out["mr_downvotes"] = dev.projects.get(pid, lazy=True).mergerequests.get(mr.iid).downvotes
print(json.dumps(out))
