"""The web client on AWS: ``web/`` in a private S3 bucket behind CloudFront, with its ``config.json``.

- ``bucket`` (``WebBucket``): private (public access blocked, TLS only, S3-managed encryption,
  access logs to ``logs``); CloudFront reads it through origin access control (OAC), so the
  bucket policy lets the service principal ``cloudfront.amazonaws.com`` get objects only when
  the request comes from this distribution (``AWS:SourceArn``).
- ``distribution`` (``WebDistribution``): HTTPS only (HTTP redirects), a CloudFront Function
  that sends ``/`` to ``/app/`` and serves ``index.html`` for a folder, security headers (HSTS,
  nosniff, frame deny, referrer policy, a CSP), access logs to ``logs``.
- ``deploy(...)``: a ``BucketDeployment`` of ``web/`` under ``app/`` plus ``app/config.json``,
  written at deploy time from the stack's tokens (the APIs' URLs, the Cognito domain, the web
  app client, the distribution's address): the repository carries no per-stack file.

Dependencies go one way: the distribution names only the bucket, the Cognito domain and the
region. The HTTP API's CORS origin and the web app client's callback URL name the distribution,
so the distribution cannot name the API back (a cycle): the CSP's ``connect-src`` allows API
Gateway endpoints of this region (``*.execute-api.{region}``) rather than the API's own id.
``config.json`` (the deployment) depends on everything, and nothing depends on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_cloudfront_origins as origins
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_deployment as s3deploy
from constructs import Construct

#: Where the app lives in the bucket and on the distribution.
APP_PREFIX = "app/"
APP_PATH = "/" + APP_PREFIX

#: The scopes the web client asks Cognito for (the web app client allows exactly these).
SCOPES = ("openid", "email", "profile")

#: The viewer-request function: ``/`` (and ``/app``) redirect to ``/app/`` so the app's relative URLs
#: resolve under it; a folder (``/app/``, with ``?code=...`` after sign-in) is served its ``index.html``.
ROUTER_CODE = """\
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri === '/' || uri === '/index.html' || uri === '/app') {
    return {statusCode: 302, statusDescription: 'Found', headers: {location: {value: '/app/'}}};
  }
  if (uri.charAt(uri.length - 1) === '/') {
    request.uri = uri + 'index.html';
  }
  return request;
}
"""

#: The CDK feature flag (set on this construct only) for S3 server access logs through a bucket policy.
SERVER_ACCESS_LOGS_USE_BUCKET_POLICY = "@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy"

#: How long edges and browsers keep the app's files: there is no invalidation (it would need
#: ``cloudfront:CreateInvalidation`` on every distribution, the only resource CDK's deployment grants it on),
#: so a deployment reaches every viewer within this time.
CACHE_SECONDS = 300


def content_security_policy(region: str, url_suffix: str, auth_domain_url: str) -> str:
    """The app's CSP: its own files only; calls to this region's API Gateway endpoints and the Cognito domain.

    No inline script or style, no frames, no plugins; forms post only to the app or the Cognito domain.
    """
    execute_api = f"*.execute-api.{region}.{url_suffix}"
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            "manifest-src 'self'",
            f"connect-src 'self' https://{execute_api} wss://{execute_api} {auth_domain_url}",
            f"form-action 'self' {auth_domain_url}",
            "frame-ancestors 'none'",
            "base-uri 'self'",
            "object-src 'none'",
        )
    )


class WebHosting(Construct):
    """``bucket``, ``logs``, ``distribution``, ``origin`` (``https://{domain}``), ``app_url`` (``.../app/``)."""

    def __init__(self, scope: Construct, construct_id: str, *, auth_domain_url: str, web_root: Path) -> None:
        super().__init__(scope, construct_id)
        # S3 server access logs are let in by the logs bucket's policy (logging.s3.amazonaws.com, from the web
        # bucket of this account only), not by the legacy LogDeliveryWrite ACL.
        self.node.set_context(SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, True)
        self.web_root = web_root
        stack = Stack.of(self)
        # CloudFront's standard logs are delivered with an ACL grant CloudFront adds itself, so this bucket keeps
        # ACLs (owner preferred); the S3 server access logs of the web bucket land here too. Kept 90 days.
        self.logs = self._private_bucket(
            "Logs",
            "WebLogs",
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
            lifecycle_rules=[s3.LifecycleRule(expiration=Duration.days(90))],
        )
        self.bucket = self._private_bucket(
            "Bucket",
            "WebBucket",
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            server_access_logs_bucket=self.logs,
            server_access_logs_prefix="s3/",
        )

        router = cloudfront.Function(
            self,
            "Router",
            code=cloudfront.FunctionCode.from_inline(ROUTER_CODE),
            runtime=cloudfront.FunctionRuntime.JS_2_0,
            comment="tourney web: / to /app/, a folder to its index.html",
        )
        headers = cloudfront.ResponseHeadersPolicy(
            self,
            "Headers",
            comment="tourney web: HSTS, nosniff, frame deny, referrer, CSP",
            security_headers_behavior=cloudfront.ResponseSecurityHeadersBehavior(
                strict_transport_security=cloudfront.ResponseHeadersStrictTransportSecurity(
                    access_control_max_age=Duration.days(730), include_subdomains=True, override=True
                ),
                content_type_options=cloudfront.ResponseHeadersContentTypeOptions(override=True),
                frame_options=cloudfront.ResponseHeadersFrameOptions(
                    frame_option=cloudfront.HeadersFrameOption.DENY, override=True
                ),
                referrer_policy=cloudfront.ResponseHeadersReferrerPolicy(
                    referrer_policy=cloudfront.HeadersReferrerPolicy.SAME_ORIGIN, override=True
                ),
                content_security_policy=cloudfront.ResponseHeadersContentSecurityPolicy(
                    content_security_policy=content_security_policy(stack.region, stack.url_suffix, auth_domain_url),
                    override=True,
                ),
            ),
            custom_headers_behavior=cloudfront.ResponseCustomHeadersBehavior(
                custom_headers=[
                    cloudfront.ResponseCustomHeader(
                        header="Permissions-Policy", value="camera=(), microphone=(), geolocation=()", override=True
                    )
                ]
            ),
        )
        cache = cloudfront.CachePolicy(
            self,
            "Cache",
            comment="tourney web: the app's files for at most five minutes; no cookie, header or query string",
            default_ttl=Duration.seconds(CACHE_SECONDS),
            min_ttl=Duration.seconds(0),
            max_ttl=Duration.seconds(CACHE_SECONDS),
            enable_accept_encoding_gzip=True,
            enable_accept_encoding_brotli=True,
        )
        self.distribution = cloudfront.Distribution(
            self,
            "Distribution",
            comment="tourney web client",
            default_behavior=cloudfront.BehaviorOptions(
                origin=origins.S3BucketOrigin.with_origin_access_control(self.bucket),
                viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
                allowed_methods=cloudfront.AllowedMethods.ALLOW_GET_HEAD,
                cached_methods=cloudfront.CachedMethods.CACHE_GET_HEAD,
                cache_policy=cache,
                response_headers_policy=headers,
                compress=True,
                function_associations=[
                    cloudfront.FunctionAssociation(
                        function=router, event_type=cloudfront.FunctionEventType.VIEWER_REQUEST
                    )
                ],
            ),
            default_root_object=f"{APP_PREFIX}index.html",  # behind the router's redirect, should it be detached
            http_version=cloudfront.HttpVersion.HTTP2_AND_3,
            price_class=cloudfront.PriceClass.PRICE_CLASS_ALL,
            enable_logging=True,
            log_bucket=self.logs,
            log_file_prefix="cloudfront/",
        )
        self.distribution.node.default_child.override_logical_id("WebDistribution")  # type: ignore[union-attr]
        self.origin = f"https://{self.distribution.distribution_domain_name}"
        self.app_url = f"{self.origin}{APP_PATH}"

    def _private_bucket(self, construct_id: str, logical: str, **options: Any) -> s3.Bucket:
        """A bucket no one reaches but by policy: public access blocked, TLS only, S3-managed keys, retained."""
        bucket = s3.Bucket(
            self,
            construct_id,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            removal_policy=RemovalPolicy.RETAIN,  # the logs are an audit trail; the app's files are redeployable
            **options,
        )
        bucket.node.default_child.override_logical_id(logical)  # type: ignore[union-attr]
        return bucket

    def deploy(self, *, api_url: str, websocket_url: str, auth_domain_url: str, client_id: str) -> None:
        """``web/`` under ``app/`` and ``app/config.json`` (what the app reads next to its ``index.html``)."""
        config = {
            "api": api_url,
            "ws": websocket_url,
            "auth": {
                "mode": "cognito",
                "domain": auth_domain_url,
                "client_id": client_id,
                "redirect_uri": self.app_url,
                "scopes": list(SCOPES),
            },
        }
        # The deployment's function (CDK's, run by CloudFormation at deploy time) gets its own role: its log group
        # and the buckets CDK grants (the assets, this bucket), not the AWS managed basic execution policy.
        self.deployment_role = iam.Role(
            self,
            "DeploymentRole",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description="tourney web: copies web/ and config.json into the web bucket at deploy time",
        )
        self.deployment_logs = logs.LogGroup(self, "DeploymentLogs", retention=logs.RetentionDays.ONE_MONTH)
        self.deployment_logs.grant_write(self.deployment_role)
        self.deployment = s3deploy.BucketDeployment(
            self,
            "Deployment",
            destination_bucket=self.bucket,
            destination_key_prefix=APP_PREFIX,
            sources=[
                s3deploy.Source.asset(str(self.web_root), exclude=["config.json", ".*", "**/.*"]),
                s3deploy.Source.json_data("config.json", config),
            ],
            cache_control=[s3deploy.CacheControl.from_string(f"public, max-age={CACHE_SECONDS}")],
            prune=True,  # files removed from web/ leave the bucket
            memory_limit=256,
            role=self.deployment_role,
            log_group=self.deployment_logs,
        )
        self.deployment_function = next(
            child
            for child in Stack.of(self).node.children
            if child.node.id.startswith("Custom::CDKBucketDeployment")  # CDK's singleton, at the stack's root
        )
