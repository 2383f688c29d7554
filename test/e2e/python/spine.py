"""Drives Anvil with python-gitlab exactly as a user would; prints one JSON line of what it saw."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["ANVIL_URL"], private_token=os.environ["ANVIL_TOKEN"])
gl.auth()
user = gl.users.create({"username": "carol", "name": "Carol", "email": "carol@example.com",
                        "password": "Sup3r-secret-pw!", "skip_confirmation": True})
group = gl.groups.create({"name": "PyGroup", "path": "pygroup", "visibility": "private"})
project = gl.projects.create({"name": "PyProject", "path": "pyproject", "namespace_id": group.id,
                              "visibility": "private"})
member = project.members.create({"user_id": user.id, "access_level": 40})
listed = [p.path_with_namespace for p in gl.projects.list(get_all=True)]
print(json.dumps({
    "auth_user": gl.user.username,
    "user": user.username,
    "group": group.full_path,
    "project": project.path_with_namespace,
    "member_access": member.access_level,
    "listed": listed,
}))
