"""python-gitlab (Debian python3-gitlab) against Anvil's LDAP group links and LDAP sync: create a
cn link and a filter link, list them, ask for a sync and wait for the directory's member (the user whose LDAP identity is the member's DN), delete
the filter link (python-gitlab sends cn/filter and provider as query parameters), list again.
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os
import time

import gitlab

url = os.environ["ANVIL_URL"]
gl = gitlab.Gitlab(url, private_token=os.environ["OWNER_TOKEN"])
group = gl.groups.get(int(os.environ["GROUP_ID"]), lazy=True)
out = {}

group.ldap_group_links.create({"provider": "ldapmain", "group_access": 30, "cn": "devs"})
group.ldap_group_links.create({"provider": "ldapmain", "group_access": 10, "filter": "(uid=nobody)"})
out["listed"] = [l._attrs for l in group.ldap_group_links.list()]  # the server's fields only

group.ldap_sync()
members = []
for _ in range(100):
    members = sorted((m.username, m.access_level) for m in group.members.list(get_all=True))
    if any(name == os.environ["MEMBER"] for name, _ in members):
        break
    time.sleep(0.1)
out["members"] = members

[filter_link] = [l for l in group.ldap_group_links.list() if l.filter]
filter_link.delete()
out["after_delete"] = [l.cn for l in group.ldap_group_links.list()]
print(json.dumps(out))
