"""Cognito: the players' user pool, its app clients, its sign-in domain, the operators group.

Two app clients, both public (no secret):

- ``client`` (``UserPoolClient``) for the mobile apps, which sign in with SRP themselves;
- ``web_client`` (``UserPoolWebClient``, added by ``add_web_client`` once the web client's URL is
  known) for the web client served by CloudFront: the authorization code grant only, on the
  pool's Cognito domain (``domain``). A public client cannot keep a secret, so the code exchange
  is protected by PKCE (RFC 7636): the app sends ``code_challenge`` (S256) to ``/oauth2/authorize``
  and the matching ``code_verifier`` to ``/oauth2/token``, so a stolen code is useless. No implicit
  grant (tokens in the URL fragment).

The HTTP API's JWT authorizer and the WebSocket ``$connect`` check (in the ``ws`` function)
accept tokens of this pool whose audience (``aud`` or ``client_id``) is one of ``audiences``
(the mobile client first: the local runtime mints its tokens for the first audience).
Operators are the members of the group ``operators`` (``cognito:groups`` claim); the
``admin`` function refuses everyone else.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_cognito as cognito
from constructs import Construct

from infra import wiring

#: CDK context key: the Cognito domain prefix (``https://{prefix}.auth.{region}.amazoncognito.com``).
DOMAIN_PREFIX_CONTEXT = "tourney:authDomainPrefix"

#: What the web client asks for: its ID token names the player (``sub``, ``email``, ``cognito:groups``).
WEB_SCOPES = (cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE)


class Auth(Construct):
    """``user_pool``, ``client``, ``domain``, ``web_client``, ``issuer`` (the JWT ``iss``), ``operators``."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.web_client: cognito.UserPoolClient | None = None
        self.user_pool = cognito.UserPool(
            self,
            "Players",
            self_sign_up_enabled=True,
            sign_in_aliases=cognito.SignInAliases(username=True, email=True),
            auto_verify=cognito.AutoVerifiedAttrs(email=True),
            account_recovery=cognito.AccountRecovery.EMAIL_ONLY,
            password_policy=cognito.PasswordPolicy(
                min_length=12,
                require_lowercase=True,
                require_uppercase=True,
                require_digits=True,
                require_symbols=True,
                temp_password_validity=Duration.days(3),
            ),
            mfa=cognito.Mfa.OPTIONAL,
            mfa_second_factor=cognito.MfaSecondFactor(otp=True, sms=False),
            removal_policy=RemovalPolicy.RETAIN,  # player accounts outlive a stack
        )
        self.user_pool.node.default_child.override_logical_id("UserPool")  # type: ignore[union-attr]
        self.client = self.user_pool.add_client(
            "Clients",
            auth_flows=cognito.AuthFlow(user_srp=True),
            generate_secret=False,
            # The mobile apps sign in with SRP, never on the Cognito domain: no OAuth flow for this client (CDK's
            # default would allow the implicit and code grants to https://example.com once the pool has a domain).
            disable_o_auth=True,
            access_token_validity=Duration.hours(1),
            id_token_validity=Duration.hours(1),
            refresh_token_validity=Duration.days(30),
            prevent_user_existence_errors=True,
        )
        self.client.node.default_child.override_logical_id("UserPoolClient")  # type: ignore[union-attr]
        self.operators = cognito.CfnUserPoolGroup(
            self,
            "Operators",
            user_pool_id=self.user_pool.user_pool_id,
            group_name=wiring.OPERATORS_GROUP,
            description="Operators: may call /admin/* (create tournaments, terminate, deposits)",
        )
        self.operators.override_logical_id("UserPoolOperators")
        stack = Stack.of(self)
        self.issuer = f"https://cognito-idp.{stack.region}.{stack.url_suffix}/{self.user_pool.user_pool_id}"
        # Cognito prefix domains are unique per region across all accounts: the account id makes the default so.
        prefix = self.node.try_get_context(DOMAIN_PREFIX_CONTEXT) or f"tourney-{stack.account}"
        self.domain = self.user_pool.add_domain(
            "Domain",
            cognito_domain=cognito.CognitoDomainOptions(domain_prefix=prefix),
            # The classic hosted sign-in pages: they need no branding resource per client.
            managed_login_version=cognito.ManagedLoginVersion.CLASSIC_HOSTED_UI,
        )
        self.domain.node.default_child.override_logical_id("UserPoolDomain")  # type: ignore[union-attr]

    @property
    def domain_url(self) -> str:
        """``https://{prefix}.auth.{region}.amazoncognito.com``: the web client's ``/oauth2/*`` endpoints."""
        return self.domain.base_url()

    def add_web_client(self, app_url: str) -> cognito.UserPoolClient:
        """The web client's app client: code grant (with PKCE) to ``app_url``, which is also the logout URL."""
        self.web_client = self.user_pool.add_client(
            "WebClient",
            generate_secret=False,  # a browser app cannot keep one: PKCE protects the code exchange
            o_auth=cognito.OAuthSettings(
                flows=cognito.OAuthFlows(authorization_code_grant=True, implicit_code_grant=False),
                scopes=list(WEB_SCOPES),
                callback_urls=[app_url],
                logout_urls=[app_url],
            ),
            supported_identity_providers=[cognito.UserPoolClientIdentityProvider.COGNITO],
            access_token_validity=Duration.hours(1),
            id_token_validity=Duration.hours(1),
            refresh_token_validity=Duration.hours(12),  # a long session at the tables, not a month in a browser
            enable_token_revocation=True,
            prevent_user_existence_errors=True,
        )
        cfn = self.web_client.node.default_child
        cfn.override_logical_id("UserPoolWebClient")  # type: ignore[union-attr]
        # Sign-in happens on the Cognito domain's pages, never in the app: no SRP or password flow for this
        # client, only the refresh of the tokens the code grant issued.
        cfn.explicit_auth_flows = ["ALLOW_REFRESH_TOKEN_AUTH"]  # type: ignore[union-attr]
        return self.web_client

    @property
    def audiences(self) -> list[str]:
        """The app client ids a token may be issued to: the mobile client first, then the web client."""
        clients = [self.client] + ([self.web_client] if self.web_client is not None else [])
        return [client.user_pool_client_id for client in clients]
