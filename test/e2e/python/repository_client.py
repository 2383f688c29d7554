"""python-gitlab (Debian python3-gitlab) against Anvil's Repository Files and Branches APIs: create a
file in an empty project, get and decode it, update it, read it raw, create, list, get and delete a
branch, delete the file. Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabCreateError, GitlabGetError

url = os.environ["ANVIL_URL"]
gl = gitlab.Gitlab(url, private_token=os.environ["TOKEN"])
project = gl.projects.get(int(os.environ["PROJECT_ID"]), lazy=True)
out = {}

created = project.files.create({"file_path": "ci/build.yml", "branch": "main", "content": "build:\n  script: make\n",
                                "commit_message": "Add build"})
out["created"] = {"file_path": created.file_path, "branch": created.branch}

f = project.files.get(file_path="ci/build.yml", ref="main")
out["got"] = {"content": f.decode().decode(), "size": f.size, "blob_id": f.blob_id, "commit_id": f.commit_id,
              "last_commit_id": f.last_commit_id, "file_name": f.file_name}

f.content = "build:\n  script: make all\n"
f.save(branch="main", commit_message="Update build")
out["raw"] = project.files.raw(file_path="ci/build.yml", ref="main").decode()

try:
    project.files.create({"file_path": "ci/build.yml", "branch": "main", "content": "x", "commit_message": "again"})
    out["duplicate"] = "created"
except GitlabCreateError as e:
    out["duplicate"] = [e.response_code, e.error_message]

branch = project.branches.create({"branch": "feature/py", "ref": "main"})
out["branch"] = {"name": branch.name, "default": branch.default, "commit": branch.commit["id"]}
out["branches"] = [b.name for b in project.branches.list(get_all=True)]
out["got_branch"] = project.branches.get("feature/py").name
project.branches.delete("feature/py")
try:
    project.branches.get("feature/py")
    out["after_branch_delete"] = "still there"
except GitlabGetError as e:
    out["after_branch_delete"] = e.response_code

project.files.delete(file_path="ci/build.yml", branch="main", commit_message="Remove build")
try:
    project.files.get(file_path="ci/build.yml", ref="main")
    out["after_delete"] = "still there"
except GitlabGetError as e:
    out["after_delete"] = e.response_code

print(json.dumps(out))
