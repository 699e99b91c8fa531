"""Checking an AWS Signature Version 4 locally: the ``@connections`` API answers only the runtime's own signers.

On AWS, ``POST @connections/{id}`` needs a request signed by a principal with
``execute-api:ManageConnections``. Locally the gateway listens on 127.0.0.1,
where any process of the machine could reach it; the runtime gives its
handlers a secret key of its own for each run (``LocalRuntime.aws_secret``),
and the gateway answers a ``@connections`` call over HTTP only when it is
signed with that key (403 ``ForbiddenException`` otherwise, as API Gateway
answers a bad signature). botocore computes the signature, so the check is
the one the client made.

>>> from botocore.awsrequest import AWSRequest
>>> from botocore.auth import SigV4Auth
>>> from botocore.credentials import Credentials
>>> sent = AWSRequest("POST", "http://127.0.0.1:9/live/%40connections/abc%3D", data=b"{}")
>>> SigV4Auth(Credentials("testing", "s3cret"), "execute-api", "us-east-1").add_auth(sent)
>>> headers = {**dict(sent.headers.items()), "Host": "127.0.0.1:9"}  # as the HTTP client sends it
>>> signed_with("s3cret", "POST", "http://127.0.0.1:9/live/%40connections/abc%3D", headers, b"{}")
True
>>> signed_with("testing", "POST", "http://127.0.0.1:9/live/%40connections/abc%3D", headers, b"{}")
False
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping

_AUTHORIZATION = re.compile(
    r"^AWS4-HMAC-SHA256 Credential=(?P<key>[^/]+)/(?P<date>\d{8})/(?P<region>[^/]+)/(?P<service>[^/]+)/aws4_request,"
    r"\s*SignedHeaders=(?P<headers>[^,]+),\s*Signature=(?P<signature>[0-9a-f]{64})$"
)


def signed_with(secret: str, method: str, url: str, headers: Mapping[str, str], body: bytes) -> bool:
    """Whether the request (``url`` as sent: its path still percent-encoded) is signed with ``secret``."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    lower = {name.lower(): value for name, value in headers.items()}
    found = _AUTHORIZATION.match(lower.get("authorization", "").strip())
    timestamp = lower.get("x-amz-date", "")
    if found is None or not timestamp.startswith(found["date"]):
        return False
    names = found["headers"].split(";")
    if "host" not in names or any(name not in lower for name in names):
        return False
    request = AWSRequest(method=method, url=url, data=body, headers={name: lower[name] for name in names})
    request.context["timestamp"] = timestamp
    token = lower.get("x-amz-security-token")
    signer = SigV4Auth(Credentials(found["key"], secret, token), found["service"], found["region"])
    expected = signer.signature(signer.string_to_sign(request, signer.canonical_request(request)), request)
    return hmac.compare_digest(expected, found["signature"])
