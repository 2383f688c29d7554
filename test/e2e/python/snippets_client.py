"""python-gitlab (Debian python3-gitlab) against Anvil's project snippets: create, add a file
through files[], list, get, raw content, update title and files, delete, and the 404 after it.
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabGetError

url = os.environ["ANVIL_URL"]
rep = gitlab.Gitlab(url, private_token=os.environ["REPORTER_TOKEN"])
pid = int(os.environ["PROJECT_ID"])
out = {}

project = rep.projects.get(pid, lazy=True)
one = project.snippets.create({"title": "Py one", "file_name": "hello.py", "content": "print('hi')",
                               "visibility": "private", "description": "first"})
two = project.snippets.create({"title": "Py two", "visibility": "internal", "file_name": "a.txt", "content": "A"})
two.files = [{"action": "create", "file_path": "b.txt", "content": "B"}]
two.save()
out["created"] = {"file_name": one.file_name, "files": [f["path"] for f in two.files], "author": one.author["id"]}
out["listed"] = [s.title for s in project.snippets.list(get_all=True)]

got = project.snippets.get(one.id)
out["got"] = {"title": got.title, "description": got.description, "visibility": got.visibility}
out["raw"] = got.content().decode()

got.title = "Py one renamed"
got.content = "print('bye')"
got.save()
out["updated"] = {"title": project.snippets.get(one.id).title, "raw": project.snippets.get(one.id).content().decode()}

two_obj = project.snippets.get(two.id)
two_obj.files = [{"action": "move", "previous_path": "b.txt", "file_path": "c.txt"}]
two_obj.save()
out["moved"] = [f["path"] for f in project.snippets.get(two.id).files]

project.snippets.delete(one.id)
try:
    project.snippets.get(one.id)
    out["after_delete"] = "still there"
except GitlabGetError as e:
    out["after_delete"] = e.response_code

print(json.dumps(out))
