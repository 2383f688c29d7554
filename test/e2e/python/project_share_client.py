"""python-gitlab (Debian python3-gitlab) against Anvil's project sharing: a Maintainer shares a
project with a group (project.share) or removes the share (project.unshare), as ACTION says.
Prints one JSON line with the project's shared_with_groups after the call and the projects the
invited group's member lists as shared with that group; exits non-zero on any unexpected answer."""
import json
import os

import gitlab

url = os.environ["ANVIL_URL"]
owner = gitlab.Gitlab(url, private_token=os.environ["OWNER_TOKEN"])
member = gitlab.Gitlab(url, private_token=os.environ["MEMBER_TOKEN"])
project = owner.projects.get(int(os.environ["PROJECT_ID"]))
invited = int(os.environ["INVITED_GROUP_ID"])
if os.environ["ACTION"] == "share":
    project.share(invited, gitlab.const.AccessLevel.DEVELOPER)
else:
    project.unshare(invited)
shared = owner.projects.get(project.id).shared_with_groups
listed = [p.id for p in member.groups.get(invited, lazy=True).shared_projects.list(get_all=True)]
print(json.dumps({"shared_with_groups": shared, "shared_projects": listed}))
