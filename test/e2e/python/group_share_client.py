"""python-gitlab (Debian python3-gitlab) against Anvil's group sharing: the Owner of a group shares it
with another group (group.share) or removes the share (group.unshare), as ACTION says.
Prints one JSON line with the group's shared_with_groups after the call; exits non-zero on any
unexpected answer."""
import json
import os

import gitlab

owner = gitlab.Gitlab(os.environ["ANVIL_URL"], private_token=os.environ["OWNER_TOKEN"])
group = owner.groups.get(int(os.environ["GROUP_ID"]))
invited = int(os.environ["INVITED_GROUP_ID"])
if os.environ["ACTION"] == "share":
    group.share(invited, gitlab.const.AccessLevel.REPORTER)
    shared = group.shared_with_groups
else:
    group.unshare(invited)
    shared = owner.groups.get(group.id).shared_with_groups
print(json.dumps({"shared_with_groups": shared}))
