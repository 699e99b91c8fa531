"""The web client on AWS (``infra/web_hosting.py``): private bucket, CloudFront, Cognito code grant, config.json."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from infra import wiring
from infra.web_hosting import ROUTER_CODE
from tests.infra.template import Synthesized, as_list, render

ROOT = Path(__file__).resolve().parents[2]
DISTRIBUTION_ARN = "arn:<AWS::Partition>:cloudfront::<AWS::AccountId>:distribution/<WebDistribution>"
APP_URL = "https://<WebDistribution.DomainName>/app/"
COGNITO = "https://<UserPoolDomain>.auth.<AWS::Region>.amazoncognito.com"


def _one(synthesized: Synthesized, kind: str) -> dict[str, Any]:
    (resource,) = synthesized.of_type(kind).values()
    return resource


def _policy_of(synthesized: Synthesized, bucket: str) -> list[dict[str, Any]]:
    (policy,) = [
        p for p in synthesized.of_type("AWS::S3::BucketPolicy").values() if p["Properties"]["Bucket"] == {"Ref": bucket}
    ]
    return list(render(policy["Properties"]["PolicyDocument"]["Statement"]))


def _behaviors(synthesized: Synthesized) -> list[dict[str, Any]]:
    config = synthesized.resources["WebDistribution"]["Properties"]["DistributionConfig"]
    return [config["DefaultCacheBehavior"], *config.get("CacheBehaviors", [])]


# ---------------------------------------------------------------------- the bucket


@pytest.mark.parametrize("bucket", ["WebBucket", "WebLogs"])
def test_buckets_are_private_encrypted_and_tls_only(synthesized: Synthesized, bucket: str) -> None:
    properties = synthesized.resources[bucket]["Properties"]
    assert properties["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    (encryption,) = properties["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert encryption["ServerSideEncryptionByDefault"] == {"SSEAlgorithm": "AES256"}
    assert "AccessControl" not in properties  # no legacy ACL grant
    assert synthesized.resources[bucket]["DeletionPolicy"] == "Retain"
    deny = [s for s in _policy_of(synthesized, bucket) if s["Effect"] == "Deny"]
    assert deny == [
        {
            "Action": "s3:*",
            "Condition": {"Bool": {"aws:SecureTransport": "false"}},
            "Effect": "Deny",
            "Principal": {"AWS": "*"},
            "Resource": [f"<{bucket}.Arn>", f"<{bucket}.Arn>/*"],
        }
    ]


def test_the_web_bucket_is_readable_by_the_distribution_only(synthesized: Synthesized) -> None:
    # the only Allow of the bucket policy: CloudFront's service principal, for this distribution, objects only
    allows = [s for s in _policy_of(synthesized, "WebBucket") if s["Effect"] == "Allow"]
    assert allows == [
        {
            "Action": "s3:GetObject",
            "Condition": {"StringEquals": {"AWS:SourceArn": DISTRIBUTION_ARN}},
            "Effect": "Allow",
            "Principal": {"Service": "cloudfront.amazonaws.com"},
            "Resource": "<WebBucket.Arn>/*",
        }
    ]
    properties = synthesized.resources["WebBucket"]["Properties"]
    assert properties["OwnershipControls"] == {"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]}
    assert "WebsiteConfiguration" not in properties  # not an S3 website: only the distribution serves it
    assert properties["LoggingConfiguration"] == {"DestinationBucketName": {"Ref": "WebLogs"}, "LogFilePrefix": "s3/"}


def test_the_logs_bucket_takes_the_web_buckets_access_logs_only(synthesized: Synthesized) -> None:
    allows = [s for s in _policy_of(synthesized, "WebLogs") if s["Effect"] == "Allow"]
    assert allows == [
        {
            "Action": "s3:PutObject",
            "Condition": {
                "ArnLike": {"aws:SourceArn": "<WebBucket.Arn>"},
                "StringEquals": {"aws:SourceAccount": "<AWS::AccountId>"},
            },
            "Effect": "Allow",
            "Principal": {"Service": "logging.s3.amazonaws.com"},
            "Resource": "<WebLogs.Arn>/s3/*",
        }
    ]
    rules = synthesized.resources["WebLogs"]["Properties"]["LifecycleConfiguration"]["Rules"]
    assert rules == [{"ExpirationInDays": 90, "Status": "Enabled"}]


# ---------------------------------------------------------------------- the distribution


def test_the_distribution_reads_the_bucket_through_origin_access_control(synthesized: Synthesized) -> None:
    config = render(synthesized.resources["WebDistribution"]["Properties"]["DistributionConfig"])
    (origin,) = config["Origins"]
    assert origin["DomainName"] == "<WebBucket.RegionalDomainName>"
    assert origin["S3OriginConfig"] == {"OriginAccessIdentity": ""}  # no legacy OAI
    (oac_id,) = re.findall(r"<(\w+)\.Id>", origin["OriginAccessControlId"])
    oac = synthesized.resources[oac_id]
    assert oac["Type"] == "AWS::CloudFront::OriginAccessControl"
    assert oac["Properties"]["OriginAccessControlConfig"] | {"Name": None} == {
        "Name": None,
        "OriginAccessControlOriginType": "s3",
        "SigningBehavior": "always",
        "SigningProtocol": "sigv4",
    }


def test_viewers_are_on_https_only(synthesized: Synthesized) -> None:
    for behavior in _behaviors(synthesized):
        assert behavior["ViewerProtocolPolicy"] == "redirect-to-https"
        assert behavior["AllowedMethods"] == ["GET", "HEAD"]
    config = synthesized.resources["WebDistribution"]["Properties"]["DistributionConfig"]
    assert config["DefaultRootObject"] == "app/index.html"
    assert render(config["Logging"]) == {"Bucket": "<WebLogs.RegionalDomainName>", "Prefix": "cloudfront/"}


def test_security_headers_on_every_answer(synthesized: Synthesized) -> None:
    (behavior,) = _behaviors(synthesized)
    (policy_id,) = re.findall(r"<(\w+)>", render(behavior["ResponseHeadersPolicyId"]))
    config = render(synthesized.resources[policy_id]["Properties"]["ResponseHeadersPolicyConfig"])
    headers = config["SecurityHeadersConfig"]
    assert headers["StrictTransportSecurity"]["AccessControlMaxAgeSec"] >= 365 * 24 * 3600
    assert headers["StrictTransportSecurity"]["IncludeSubdomains"] is True
    assert headers["ContentTypeOptions"] == {"Override": True}
    assert headers["FrameOptions"] == {"FrameOption": "DENY", "Override": True}
    csp = {
        name: sources
        for name, _, sources in (
            directive.partition(" ")
            for directive in headers["ContentSecurityPolicy"]["ContentSecurityPolicy"].split("; ")
        )
    }
    assert csp["default-src"] == "'none'"
    assert csp["script-src"] == "'self'"  # no inline script, no eval
    assert csp["frame-ancestors"] == "'none'"
    # the app calls the HTTP API, the WebSocket API and the Cognito domain (the token exchange), nothing else;
    # the APIs by this region's execute-api hosts: the API's own id would make a cycle (its CORS names the
    # distribution's domain)
    assert set(csp["connect-src"].split()) == {
        "'self'",
        "https://*.execute-api.<AWS::Region>.<AWS::URLSuffix>",
        "wss://*.execute-api.<AWS::Region>.<AWS::URLSuffix>",
        COGNITO,
    }
    assert set(csp["form-action"].split()) == {"'self'", COGNITO}


def _route(uris: list[str]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run the CloudFront Function")
    script = ROUTER_CODE + (
        f"console.log(JSON.stringify({json.dumps(uris)}.map(function (uri) {{"
        " return handler({request: {uri: uri, querystring: {}, headers: {}}}); })));"
    )
    result = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True, timeout=30)
    return list(json.loads(result.stdout))


def test_the_root_reaches_the_app(synthesized: Synthesized) -> None:
    (behavior,) = _behaviors(synthesized)
    (association,) = behavior["FunctionAssociations"]
    assert association["EventType"] == "viewer-request"
    function_id = association["FunctionARN"]["Fn::GetAtt"][0]
    function = synthesized.resources[function_id]["Properties"]
    assert function["FunctionCode"] == ROUTER_CODE
    assert function["FunctionConfig"]["Runtime"] == "cloudfront-js-2.0"
    # / redirects to /app/ (so the app's relative URLs resolve under it); a folder is served its index.html
    root, app, index, script, view = _route(["/", "/app", "/app/", "/app/app.js", "/app/views/"])
    for redirect in (root, app):
        assert redirect["statusCode"] == 302
        assert redirect["headers"]["location"] == {"value": "/app/"}
    assert index["uri"] == "/app/index.html"
    assert script["uri"] == "/app/app.js"
    assert view["uri"] == "/app/views/index.html"


# ---------------------------------------------------------------------- Cognito


def test_the_web_client_is_public_with_the_code_grant_only(synthesized: Synthesized) -> None:
    client = render(synthesized.resources["UserPoolWebClient"]["Properties"])
    assert client["UserPoolId"] == "<UserPool>"
    assert client["GenerateSecret"] is False  # a browser keeps no secret: PKCE protects the code exchange
    assert client["AllowedOAuthFlows"] == ["code"]  # no implicit grant, no client credentials
    assert client["AllowedOAuthFlowsUserPoolClient"] is True
    assert client["AllowedOAuthScopes"] == ["openid", "email", "profile"]
    assert client["CallbackURLs"] == [APP_URL]
    assert client["LogoutURLs"] == [APP_URL]
    assert client["SupportedIdentityProviders"] == ["COGNITO"]
    assert client["ExplicitAuthFlows"] == ["ALLOW_REFRESH_TOKEN_AUTH"]  # sign-in only on the Cognito domain
    assert client["PreventUserExistenceErrors"] == "ENABLED"
    assert client["EnableTokenRevocation"] is True
    assert client["AccessTokenValidity"] == client["IdTokenValidity"] == 60  # minutes
    assert client["RefreshTokenValidity"] <= 24 * 60


def test_the_mobile_client_signs_in_with_srp_and_no_oauth_flow(synthesized: Synthesized) -> None:
    client = synthesized.resources["UserPoolClient"]["Properties"]
    assert client["GenerateSecret"] is False
    assert client["ExplicitAuthFlows"] == ["ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]
    # the pool now has a domain: CDK's default OAuth settings (implicit + code to https://example.com) would let
    # the domain's pages hand this client's tokens to that address
    assert client["AllowedOAuthFlowsUserPoolClient"] is False
    for key in ("AllowedOAuthFlows", "AllowedOAuthScopes", "CallbackURLs"):
        assert key not in client


def test_the_pool_has_a_cognito_domain(synthesized: Synthesized) -> None:
    domain = render(synthesized.resources["UserPoolDomain"]["Properties"])
    assert domain == {"Domain": "tourney-<AWS::AccountId>", "ManagedLoginVersion": 1, "UserPoolId": "<UserPool>"}


def test_both_clients_tokens_are_accepted_by_both_apis(synthesized: Synthesized) -> None:
    authorizer = render(_one(synthesized, "AWS::ApiGatewayV2::Authorizer")["Properties"])
    # the mobile client first: the local runtime mints its tokens for the first audience
    assert authorizer["JwtConfiguration"]["Audience"] == ["<UserPoolClient>", "<UserPoolWebClient>"]
    variables = render(synthesized.resources["FunctionWs"]["Properties"]["Environment"]["Variables"])
    assert variables[wiring.JWT_AUDIENCE_ENV] == "<UserPoolClient>,<UserPoolWebClient>"


def test_the_ws_check_accepts_any_listed_client_and_no_other(tmp_path: Path) -> None:
    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa
    from tourney.entrypoints.auth import Unauthorized, verify_token
    from tourney.entrypoints.settings import Settings

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    (tmp_path / "jwks.json").write_text(json.dumps({"keys": [{**public, "kid": "k1", "alg": "RS256"}]}))
    issuer = "https://cognito-idp.us-east-1.amazonaws.com/pool"
    config = Settings.from_environ(
        {"JWT_ISSUER": issuer, "JWT_AUDIENCE": "mobile,web", "JWT_JWKS_URL": (tmp_path / "jwks.json").as_uri()}
    )

    def token(**claims: Any) -> str:
        payload = {"sub": "ann", "iss": issuer, "exp": int(time.time()) + 600, **claims}
        return jwt.encode(payload, key, algorithm="RS256", headers={"kid": "k1"})

    assert verify_token(token(aud="mobile"), config).player_id
    assert verify_token(token(client_id="web", token_use="access"), config).player_id  # an access token
    for foreign in (token(aud="elsewhere"), token(client_id="mobile,web"), token()):
        with pytest.raises(Unauthorized):
            verify_token(foreign, config)


def test_cors_allows_the_distributions_origin_only(synthesized: Synthesized) -> None:
    cors = render(synthesized.resources["HttpApi"]["Properties"]["CorsConfiguration"])
    assert cors["AllowOrigins"] == ["https://<WebDistribution.DomainName>"]
    assert set(cors["AllowMethods"]) == {route.method for route in wiring.HTTP_ROUTES}
    assert cors["AllowHeaders"] == ["Authorization", "Content-Type", "Idempotency-Key"]
    assert "AllowCredentials" not in cors


# ---------------------------------------------------------------------- the deployment and config.json


def _deployment(synthesized: Synthesized) -> dict[str, Any]:
    return _one(synthesized, "Custom::CDKBucketDeployment")["Properties"]


def _asset_of(synthesized: Synthesized, key: str) -> Path:
    return synthesized.outdir / f"asset.{key.removesuffix('.zip')}"


def test_the_app_is_deployed_under_app(synthesized: Synthesized) -> None:
    deployment = _deployment(synthesized)
    assert deployment["DestinationBucketName"] == {"Ref": "WebBucket"}
    assert deployment["DestinationBucketKeyPrefix"] == "app/"
    assert deployment["Prune"] is True
    web, _ = (_asset_of(synthesized, key) for key in deployment["SourceObjectKeys"])
    assert (web / "index.html").read_bytes() == (ROOT / "web" / "index.html").read_bytes()
    assert not (web / "config.json").exists()  # the stack's own config.json only


def test_config_json_carries_the_stacks_endpoints(synthesized: Synthesized) -> None:
    deployment = _deployment(synthesized)
    _, config_key = deployment["SourceObjectKeys"]
    (text,) = (path.read_text() for path in _asset_of(synthesized, config_key).iterdir())
    _, markers = deployment["SourceMarkers"]
    for marker, value in markers.items():  # what the deployment writes in place of each marker, at deploy time
        text = text.replace(marker, render_marker(value))
    config = json.loads(text)
    assert config == {
        "api": "<HttpApi.ApiEndpoint>",
        "ws": f"wss://<WebSocketApi>.execute-api.<AWS::Region>.<AWS::URLSuffix>/{wiring.WEBSOCKET_STAGE}",
        "auth": {
            "mode": "cognito",
            "domain": COGNITO,
            "client_id": "<UserPoolWebClient>",
            "redirect_uri": APP_URL,
            "scopes": ["openid", "email", "profile"],
        },
    }


def render_marker(value: Any) -> str:
    """A marker's value (a JSON string, made of intrinsic functions) as the text the deployment writes."""
    rendered = render(value)
    return rendered if isinstance(rendered, str) else json.dumps(rendered)


def test_the_app_url_is_an_output(synthesized: Synthesized) -> None:
    outputs = render(synthesized.template["Outputs"])
    assert outputs["AppUrl"]["Value"] == APP_URL
    assert outputs["WebClientId"]["Value"] == "<UserPoolWebClient>"


def test_the_deployment_function_has_its_own_narrow_role(synthesized: Synthesized) -> None:
    # the only function that is not the app's: CDK's BucketDeployment provider, called by CloudFormation
    others = set(synthesized.of_type("AWS::Lambda::Function")) - set(synthesized.of_app("AWS::Lambda::Function"))
    (provider,) = others
    deployments = synthesized.of_type("Custom::CDKBucketDeployment").values()
    (service_token,) = {r["Properties"]["ServiceToken"]["Fn::GetAtt"][0] for r in deployments}
    assert provider == service_token
    function = synthesized.resources[provider]["Properties"]
    role_id = function["Role"]["Fn::GetAtt"][0]
    role = synthesized.resources[role_id]["Properties"]
    assert "ManagedPolicyArns" not in role  # no AWSLambdaBasicExecutionRole: its own log group only
    assert render(role["AssumeRolePolicyDocument"]["Statement"]) == [
        {"Action": "sts:AssumeRole", "Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}}
    ]
    log_group = function["LoggingConfig"]["LogGroup"]["Ref"]
    (policy,) = [
        p for p in synthesized.of_type("AWS::IAM::Policy").values() if p["Properties"]["Roles"] == [{"Ref": role_id}]
    ]
    writes = set()
    for statement in render(policy["Properties"]["PolicyDocument"]["Statement"]):
        assert statement["Effect"] == "Allow"
        actions, resources = as_list(statement["Action"]), as_list(statement["Resource"])
        if any(a.startswith("logs:") for a in actions):
            assert resources == [f"<{log_group}.Arn>"]
            assert set(actions) == {"logs:CreateLogStream", "logs:PutLogEvents"}
        elif any(a.startswith(("s3:Put", "s3:Delete")) for a in actions):
            writes.update(resources)
        else:
            assert set(actions) == {"s3:GetObject*", "s3:GetBucket*", "s3:List*"}  # the assets: read only
    assert writes == {"<WebBucket.Arn>", "<WebBucket.Arn>/*"}  # it writes the web bucket and nothing else


def test_web_findings_are_acknowledged_where_they_arise(synthesized: Synthesized) -> None:
    (nag,) = [r for r in synthesized.report["pluginReports"] if r["pluginName"] == "AwsSolutions"]
    where: dict[str, set[str]] = {}
    for suppressed in nag["suppressedViolations"]:
        for construct in suppressed["violatingConstructs"]:
            where.setdefault(suppressed["ruleName"], set()).add(construct["constructPath"])
    for rule in ("AwsSolutions-CFR1", "AwsSolutions-CFR2", "AwsSolutions-CFR4"):
        assert where[rule] == {"Tourney/Web/Distribution/Resource"}
    deployment_policy = "Tourney/Web/DeploymentRole/DefaultPolicy/Resource"
    for action in ("GetObject*", "GetBucket*", "List*", "DeleteObject*", "Abort*"):
        assert where[f"AwsSolutions-IAM5[Action::s3:{action}]"] == {deployment_policy}
    assert where["AwsSolutions-IAM5[Resource::<WebBucket.Arn>/*]"] == {deployment_policy}
    assert not any(rule.startswith("AwsSolutions-IAM4") for rule in where)  # no AWS managed policy anywhere
    web = {rule for rule, paths in where.items() if any(path.startswith("Tourney/Web/") for path in paths)}
    assert not {rule for rule in web if rule.startswith("AwsSolutions-S")}  # the buckets need no acknowledgement


def test_the_local_runtime_leaves_the_deployment_function_to_cloudformation(synthesized: Synthesized) -> None:
    from infra.local.lambdas import read_functions
    from infra.local.template import LocalEndpoints, Resolver, load_stack

    template = load_stack(synthesized.outdir)
    functions = read_functions(template, Resolver(template, LocalEndpoints()), ROOT, {})
    assert {f.logical_id for f in functions} == set(synthesized.of_app("AWS::Lambda::Function"))
