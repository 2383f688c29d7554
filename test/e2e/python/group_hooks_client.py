"""python-gitlab (Debian python3-gitlab) against Anvil's group hooks: the group's Owner creates a
hook through group.hooks, edits it through save() (a new URL clears the token unless one is sent
along), lists and reads it, tests it (no manager in this release: http_post) and deletes it.
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabGetError, GitlabHttpError

gl = gitlab.Gitlab(os.environ["ANVIL_URL"], private_token=os.environ["OWNER_TOKEN"])
gid = int(os.environ["GROUP_ID"])
url = os.environ["HOOK_URL"]
group = gl.groups.get(gid, lazy=True)
out = {}

hook = group.hooks.create({"url": url, "token": "py-secret", "issues_events": True, "push_events": False})
out["created"] = {"url": hook.url, "issues_events": hook.issues_events, "push_events": hook.push_events, "has_token": hasattr(hook, "token")}
hook.note_events = True
hook.url = url + "?edited=1"
hook.save()
again = group.hooks.get(hook.id)
out["edited"] = {"url": again.url, "note_events": again.note_events, "issues_events": again.issues_events}
out["listed"] = [h.id for h in group.hooks.list()]
out["test"] = gl.http_post(f"/groups/{gid}/hooks/{hook.id}/test/push_events")
try:
    gl.http_post(f"/groups/{gid}/hooks/{hook.id}/test/note_events")
    out["test_notes"] = "accepted"
except GitlabHttpError as e:
    out["test_notes"] = [e.response_code, e.error_message]
again.delete()
try:
    group.hooks.get(hook.id)
    out["after_delete"] = "still there"
except GitlabGetError as e:
    out["after_delete"] = e.response_code
print(json.dumps(out))
