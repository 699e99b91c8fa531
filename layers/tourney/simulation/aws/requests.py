"""The AWS requests the model knows: each names its service and its API operation.

>>> Request.TRANSACT_WRITE_ITEMS.service
<Service.DYNAMODB: 'dynamodb'>
>>> Request.POST_TO_CONNECTION.operation
'PostToConnection'
"""

from __future__ import annotations

from enum import StrEnum


class Service(StrEnum):
    """A priced service, by the key ``tourney bench capacity`` reports it under (``docs/performance.md``)."""

    DYNAMODB = "dynamodb"
    LAMBDA = "lambda"
    WEBSOCKET = "websocket"
    HTTP = "http"
    SQS = "sqs"
    STEP_FUNCTIONS = "step_functions"


class Request(StrEnum):
    """A call a function makes to AWS: ``service:Operation``."""

    GET_ITEM = "dynamodb:GetItem"
    PUT_ITEM = "dynamodb:PutItem"
    UPDATE_ITEM = "dynamodb:UpdateItem"
    DELETE_ITEM = "dynamodb:DeleteItem"
    QUERY = "dynamodb:Query"
    SCAN = "dynamodb:Scan"
    BATCH_GET_ITEM = "dynamodb:BatchGetItem"
    BATCH_WRITE_ITEM = "dynamodb:BatchWriteItem"
    TRANSACT_GET_ITEMS = "dynamodb:TransactGetItems"
    TRANSACT_WRITE_ITEMS = "dynamodb:TransactWriteItems"
    SEND_MESSAGE = "sqs:SendMessage"
    SEND_MESSAGE_BATCH = "sqs:SendMessageBatch"
    POST_TO_CONNECTION = "websocket:PostToConnection"
    START_EXECUTION = "step_functions:StartExecution"

    @property
    def service(self) -> Service:
        return Service(self.value.split(":", 1)[0])

    @property
    def operation(self) -> str:
        return self.value.split(":", 1)[1]
