"""Cognito: the players' user pool, the app client the clients sign in with, the operators group.

The HTTP API's JWT authorizer and the WebSocket ``$connect`` check (in the ``ws`` function)
accept tokens of this pool whose audience (``aud`` or ``client_id``) is the app client.
Operators are the members of the group ``operators`` (``cognito:groups`` claim); the
``admin`` function refuses everyone else.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_cognito as cognito
from constructs import Construct

from infra import wiring


class Auth(Construct):
    """``user_pool``, ``client``, ``issuer`` (the JWT ``iss``) and ``operators`` (the group)."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
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
