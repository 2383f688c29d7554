"""python-gitlab (Debian python3-gitlab 3.12) against Anvil's group administration: push rules
through group.pushrules, SAML group links and SSH certificates through the raw http_* calls (this
release has no manager for them). Prints one JSON line with what it saw; exits non-zero on any
unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabCreateError, GitlabGetError, GitlabHttpError

url = os.environ["ANVIL_URL"]
owner = gitlab.Gitlab(url, private_token=os.environ["OWNER_TOKEN"])
maintainer = gitlab.Gitlab(url, private_token=os.environ["MAINTAINER_TOKEN"])
gid = int(os.environ["GROUP_ID"])
ca_key = os.environ["CA_KEY"]
out = {}

group = owner.groups.get(gid, lazy=True)
rule = group.pushrules.create({"commit_message_regex": "^(feat|fix): ", "deny_delete_tag": True, "max_file_size": 25})
out["created"] = {"regex": rule.commit_message_regex, "deny_delete_tag": rule.deny_delete_tag, "max_file_size": rule.max_file_size}
try:
    group.pushrules.create({"member_check": True})
    out["second_create"] = "accepted"
except GitlabCreateError as e:
    out["second_create"] = [e.response_code, e.error_message]

got = group.pushrules.get()
got.branch_name_regex = "^(main|release/.*)$"
got.save()
again = group.pushrules.get()
out["updated"] = {"branch": again.branch_name_regex, "regex": again.commit_message_regex, "id_same": again.id == rule.id}
try:
    maintainer.groups.get(gid, lazy=True).pushrules.get()
    out["maintainer"] = "allowed"
except GitlabGetError as e:
    out["maintainer"] = e.response_code
again.delete()
try:
    group.pushrules.get()
    out["after_delete"] = "still there"
except GitlabGetError as e:
    out["after_delete"] = e.response_code

base = f"/groups/{gid}/saml_group_links"
owner.http_post(base, post_data={"saml_group_name": "engineering", "access_level": 30})
owner.http_post(base, post_data={"saml_group_name": "leads", "access_level": 40, "provider": "saml_okta"})
out["saml_list"] = owner.http_get(base)
out["saml_one"] = owner.http_get(f"{base}/leads")
owner.http_delete(f"{base}/engineering")
out["saml_after_delete"] = [link["name"] for link in owner.http_get(base)]

certs = f"/groups/{gid}/ssh_certificates"
cert = owner.http_post(certs, post_data={"title": "Corp CA", "key": ca_key})
out["cert"] = {"title": cert["title"], "key_same": cert["key"] == ca_key, "keys": sorted(cert.keys())}
try:
    owner.http_post(certs, post_data={"title": "Bad", "key": "ssh-rsa not-a-key"})
    out["bad_cert"] = "accepted"
except GitlabHttpError as e:
    out["bad_cert"] = [e.response_code, e.error_message]
out["cert_titles"] = [c["title"] for c in owner.http_list(certs, get_all=True)]
owner.http_delete(f"{certs}/{cert['id']}")
out["certs_after_delete"] = owner.http_list(certs, get_all=True)

print(json.dumps(out))
