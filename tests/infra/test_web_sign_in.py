"""Cloud sign-in, end to end without a cloud: the ``config.json`` the CDK stack writes is read by the web client
key for key; the token the client keeps from the user pool (the access token, unless ``token_use`` says ``id``)
is the one both APIs accept (the HTTP API's JWT authorizer matches ``aud`` or ``client_id``; the WebSocket's
``verify_token`` the same), its ``cognito:groups`` makes an operator, and the client and the API name the same
player (``sub``; the user pool's ``username`` is only shown).

The client's own code runs in node (``web/auth.js`` has no DOM); ``app.js`` is read for the keys it takes.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.infra.template import Synthesized
from tests.infra.test_web_hosting import _asset_of, _deployment, render_marker

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
POOL = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Pool"
WEB_CLIENT, MOBILE_CLIENT = "webclientid", "mobileclientid"
SUB = "7c1e5b2a-0000-4000-8000-00000000a11e"

# The claims Cognito puts in each token (developer guide, "Understanding user pool JSON web tokens").
ACCESS_CLAIMS = {
    "sub": SUB, "cognito:groups": ["operators"], "iss": POOL, "version": 2, "client_id": WEB_CLIENT,
    "token_use": "access", "scope": "openid profile email", "username": "ann",
}  # fmt: skip
ID_CLAIMS = {
    "sub": SUB, "cognito:groups": ["operators"], "iss": POOL, "aud": WEB_CLIENT, "token_use": "id",
    "cognito:username": "ann", "email": "ann@example.com",
}  # fmt: skip

# What the client does with the config: the authorize URL, the code exchange (with both tokens offered), the
# sign-out URL and the session; every key it reads of `auth` is recorded.
NODE_SCRIPT = """
const [authPath, config, tokens] = JSON.parse(process.argv[1]);
const store = new Map();
globalThis.sessionStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k) };
const m = await import(authPath);
const read = new Set();
const auth = new Proxy(config.auth, { get: (target, key) => { read.add(String(key)); return target[key]; } });
const authorize = await m.authorizeUrl(auth);  // the rendered markers (<UserPoolDomain>) make no valid URL
const state = new URLSearchParams(authorize.split("?")[1]).get("state");
const exchange = [];
const fetcher = async (url, init) => { exchange.push([url, String(init.body)]);
  return new Response(JSON.stringify(tokens)); };
const back = { search: `?code=c1&state=${state}` };
const session = await m.completeSignIn(auth, back, fetcher);
const logout = m.logoutUrl(auth);
console.log(JSON.stringify({ read: [...read].sort(), authorize, exchange, session, logout }));
"""


def synthesized_config(synthesized: Synthesized) -> dict[str, Any]:
    """``app/config.json`` as the deployment writes it (the markers replaced by what they render to)."""
    deployment = _deployment(synthesized)
    _, config_key = deployment["SourceObjectKeys"]
    (text,) = (path.read_text() for path in _asset_of(synthesized, config_key).iterdir())
    _, markers = deployment["SourceMarkers"]
    for marker, value in markers.items():
        text = text.replace(marker, render_marker(value))
    return dict(json.loads(text))


def unsigned(claims: dict[str, Any]) -> str:
    """A JWT of ``claims`` as the browser holds it (the client decodes, never verifies)."""
    import base64

    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'RS256', 'kid': 'k1'})}.{part({**claims, 'exp': int(time.time()) + 3600})}.sig"


def run_client(config: dict[str, Any], tokens: dict[str, str]) -> dict[str, Any]:
    if NODE is None:
        pytest.skip("no node")
    argument = json.dumps([(ROOT / "web" / "auth.js").as_uri(), config, tokens])
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", NODE_SCRIPT, argument],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def keys_app_js_reads() -> tuple[set[str], set[str]]:
    """The top-level keys of the config and of its ``auth`` that ``web/app.js`` reads."""
    text = (ROOT / "web" / "app.js").read_text()
    top = set(re.findall(r"\bconfig\.(?!json\b)([A-Za-z_]\w*)", text))  # not the file name "config.json"
    auth = set(re.findall(r"\bconfig\.auth\.([A-Za-z_]\w*)", text))
    return top, auth


#: Keys the client reads that the stack may leave out: ``token_use`` (absent: the access token).
OPTIONAL_AUTH_KEYS = {"token_use"}


def test_the_web_client_reads_every_key_the_stack_writes_and_no_other(synthesized: Synthesized) -> None:
    config = synthesized_config(synthesized)
    tokens = {"access_token": unsigned(ACCESS_CLAIMS), "id_token": unsigned(ID_CLAIMS)}
    answer = run_client(config, tokens)
    top, app_auth = keys_app_js_reads()
    # The top level: app.js takes api, ws and auth, and the stack writes exactly those
    assert top == set(config) == {"api", "ws", "auth"}
    # auth: what auth.js and app.js read is what the stack writes, but for the optional keys
    read = set(answer["read"]) | app_auth
    assert read - OPTIONAL_AUTH_KEYS == set(config["auth"]), (read, set(config["auth"]))
    assert config["auth"]["mode"] == "cognito" and "mode" in app_auth
    # And the values land where the user pool expects them
    authorize = answer["authorize"]
    assert authorize.startswith(config["auth"]["domain"] + "/oauth2/authorize?")
    assert "client_id=%3CUserPoolWebClient%3E" in authorize and "code_challenge_method=S256" in authorize
    assert "scope=openid+email+profile" in authorize
    ((url, body),) = answer["exchange"]
    assert url == config["auth"]["domain"] + "/oauth2/token" and "code_verifier=" in body


def test_the_client_keeps_the_access_token_unless_told_id_and_names_the_player_as_the_api_does(
    synthesized: Synthesized,
) -> None:
    from tourney.entrypoints.auth import caller_from_claims

    config = synthesized_config(synthesized)
    tokens = {"access_token": unsigned(ACCESS_CLAIMS), "id_token": unsigned(ID_CLAIMS)}
    # With the stack's config: the access token, whose player is the API's (sub) and who is an operator
    session = run_client(config, tokens)["session"]
    assert session["token"] == tokens["access_token"]
    api = caller_from_claims(ACCESS_CLAIMS, "operators")
    assert (session["player"], session["operator"]) == (api.player_id, api.operator) == (SUB, True)
    assert session["name"] == "ann"
    # With token_use "id": the ID token, and again the same player
    as_id = {**config, "auth": {**config["auth"], "token_use": "id"}}
    session = run_client(as_id, tokens)["session"]
    assert session["token"] == tokens["id_token"]
    assert (session["player"], session["name"]) == (caller_from_claims(ID_CLAIMS).player_id, "ann")


@pytest.fixture
def signed(tmp_path: Path) -> Any:
    """``(sign, settings)``: a key pair whose JWKS the WebSocket check reads, and its settings for the pool."""
    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa
    from tourney.entrypoints.settings import Settings

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    (tmp_path / "jwks.json").write_text(json.dumps({"keys": [{**public, "kid": "k1", "alg": "RS256"}]}))
    settings = Settings.from_environ(
        {
            "JWT_ISSUER": POOL,
            "JWT_AUDIENCE": f"{MOBILE_CLIENT},{WEB_CLIENT}",
            "JWT_JWKS_URL": (tmp_path / "jwks.json").as_uri(),
            "OPERATORS_GROUP": "operators",
        }
    )

    def sign(claims: dict[str, Any]) -> str:
        payload = {"exp": int(time.time()) + 3600, "iat": int(time.time()), **claims}
        return jwt.encode(payload, key, algorithm="RS256", headers={"kid": "k1"})

    return sign, settings


@pytest.mark.parametrize("claims", [ACCESS_CLAIMS, ID_CLAIMS], ids=["access token", "id token"])
def test_the_websocket_check_takes_either_cognito_token_with_its_operator_group(
    signed: Any, claims: dict[str, Any]
) -> None:
    from tourney.entrypoints.auth import Unauthorized, verify_token

    sign, settings = signed
    caller = verify_token(sign(claims), settings)
    assert (caller.player_id, caller.operator) == (SUB, True)
    # A player's token (no group) is no operator's; another pool's client, another issuer or an expired token fail
    player = {k: v for k, v in claims.items() if k != "cognito:groups"}
    assert verify_token(sign(player), settings).operator is False
    audience = "client_id" if "client_id" in claims else "aud"
    for foreign in ({**claims, audience: "otherclient"}, {**claims, "iss": POOL + "x"}, {**claims, "exp": 1}):
        with pytest.raises(Unauthorized):
            verify_token(sign(foreign), settings)


def test_the_http_authorizer_passes_the_groups_as_api_gateway_writes_them() -> None:
    from tourney.entrypoints.auth import http_caller

    # API Gateway's JWT authorizer hands a list claim to the function as the text "[a b]"
    claims = {**ACCESS_CLAIMS, "cognito:groups": "[players operators]"}
    caller = http_caller({"requestContext": {"authorizer": {"jwt": {"claims": claims}}}})
    assert (caller.player_id, caller.operator) == (SUB, True)
