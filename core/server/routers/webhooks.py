"""Inbound webhooks (API.md 4): the path token authenticates; no bearer token."""

import json

from fastapi import APIRouter, Request
from pydantic import ValidationError

from core.api import SchemaMalformed, UnsupportedMediaType, WebhookPayload, WebhookReceipt
from core.server.deps import RuntimeDep
from core.server.errors import describe_validation
from core.service.local import LocalService

router = APIRouter(tags=["webhooks"])


@router.post(
    "/webhooks/{token}",
    response_model=WebhookReceipt,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "oneOf": [
                            WebhookPayload.model_json_schema(),
                            {"type": "string", "description": "The payload as a JSON string (API.md)."},
                        ]
                    }
                }
            },
        }
    },
)
async def receive_webhook(token: str, request: Request, runtime: RuntimeDep) -> WebhookReceipt:
    """Payload {event, data}; API.md types the body as a string, so a JSON string holding it is accepted too.

    The body is read as JSON only when it says it is JSON: a form or plain text gets 415, not a guess."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        raise UnsupportedMediaType(
            f"send the webhook's body as JSON with Content-Type: application/json (got {media_type or 'none'})"
        )
    try:
        document = json.loads(await request.body())
        if isinstance(document, str):
            document = json.loads(document)
        payload = WebhookPayload.model_validate(document)
    except json.JSONDecodeError as exc:
        raise SchemaMalformed(f"the request body is not valid JSON ({exc.msg})") from None
    except UnicodeDecodeError:
        raise SchemaMalformed("the request body is not text (expected JSON in UTF-8)") from None
    except ValidationError as exc:
        raise SchemaMalformed(describe_validation(exc.errors())) from None
    return await LocalService.for_webhooks(runtime).receive_webhook(token, payload)
