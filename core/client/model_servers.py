"""Model servers for the LLM engine: what a server offers, which run on this machine, and whether
a chosen model answers.

An OpenAI-compatible server lists its models at ``GET {base}/models`` (``{"data": [{"id": …}]}``;
Ollama, llama.cpp's server, LM Studio and vLLM all answer it). The local servers a teacher runs
listen on their usual ports of this machine: Ollama 11434, llama.cpp 8080, LM Studio 1234; they are
looked for on 127.0.0.1 only, side by side, each given 1.5 s. A model is checked with one
short chat request (a few tokens, not streamed) before it is saved: a server that lists a model it
cannot load, or a name it does not have, fails there and not in a learner's chat.

A model that answered is saved for the embedded service (:func:`check_and_save`): the running
service's settings take it at once (the next tutor turn uses it), and a file beside the database
keeps it for the next start (core.config reads it below the environment and the command line). A
remote service's model server is its operator's business: the apps do not change it.

Every failure is a :class:`ModelServerError` whose message says what happened in words a teacher
can act on (nothing answers at the address, the server refused the key, the model is unknown).
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from typing import Any

import httpx

from core.config import MODEL_SERVER_KEYS, Settings, model_server_file
from core.http import tls_context
from core.service import Service

LOCAL_SERVERS: tuple[tuple[str, int], ...] = (("Ollama", 11434), ("llama.cpp", 8080), ("LM Studio", 1234))
"""The usual ports of local model servers, probed on 127.0.0.1 (never another host)."""
LOCAL_HOST = "127.0.0.1"
PROBE_SECONDS = 1.5
"""How long a local port is given to list its models (a closed port refuses at once)."""
LIST_SECONDS = 5.0
CHECK_SECONDS = 30.0
"""The check's one request: a model that a server loads on first use (Ollama) takes seconds."""
CHECK_PROMPT = "Reply with the single word OK."


class ModelServerError(Exception):
    """What went wrong, said for the teacher who chose the server or the model."""


@dataclass(frozen=True, slots=True)
class ModelServer:
    """A server that answered with its models."""

    name: str
    """What it is usually (by its port), or the address given."""
    base_url: str
    """The address the LLM engine is given: ``http://127.0.0.1:11434/v1``."""
    models: tuple[str, ...]


def base_url_of(address: str) -> str:
    """The OpenAI-compatible base of an address as a teacher types it: a bare host and port gets
    http:// and /v1 (``localhost:11434`` → ``http://localhost:11434/v1``); a given path is kept."""
    address = address.strip().rstrip("/")
    if not address:
        raise ModelServerError("Give the address of the model server, e.g. http://127.0.0.1:11434/v1.")
    if "://" not in address:
        address = f"http://{address}"
    url = httpx.URL(address)
    if url.scheme not in ("http", "https") or not url.host:
        raise ModelServerError(f"{address} is not an http:// or https:// address.")
    return address if url.path not in ("", "/") else f"{address}/v1"


def _headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def _client(timeout: float) -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=timeout, verify=tls_context(), trust_env=False)


def _status_error(response: httpx.Response, base_url: str) -> ModelServerError:
    if response.status_code in (401, 403):
        return ModelServerError(f"The server at {base_url} refused the API key ({response.status_code}).")
    detail = _error_detail(response)
    return ModelServerError(
        f"The server at {base_url} answered {response.status_code}" + (f": {detail}" if detail else ".")
    )


def _error_detail(response: httpx.Response) -> str:
    """The server's own words for an error, short (OpenAI's ``{"error": {"message"}}``, Ollama's
    ``{"error": "…"}``), else nothing."""
    try:
        body = response.json()
    except ValueError:
        return ""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        error = error.get("message")
    return str(error)[:200] if isinstance(error, str) else ""


def _unreachable(exc: httpx.HTTPError, base_url: str, seconds: float) -> ModelServerError:
    if isinstance(exc, httpx.TimeoutException):
        return ModelServerError(f"The server at {base_url} did not answer within {seconds:g} s.")
    return ModelServerError(f"Nothing answers at {base_url} ({type(exc).__name__}).")


def _model_ids(body: Any) -> tuple[str, ...] | None:
    """The ids of a model list, or None when the body is not one."""
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        return None
    ids = [item.get("id") for item in data if isinstance(item, dict)]
    return tuple(sorted({i for i in ids if isinstance(i, str) and i}, key=str.lower))


async def list_models(
    base_url: str, api_key: str | None = None, *, seconds: float = LIST_SECONDS
) -> list[str]:
    """The models of the server at ``base_url`` (``GET {base}/models``), sorted by name."""
    async with _client(seconds) as client:
        return list(await _list(client, base_url, api_key, seconds))


async def _list(
    client: httpx.AsyncClient, base_url: str, api_key: str | None, seconds: float
) -> tuple[str, ...]:
    try:
        response = await client.get(f"{base_url.rstrip('/')}/models", headers=_headers(api_key))
    except httpx.HTTPError as exc:
        raise _unreachable(exc, base_url, seconds) from None
    if response.status_code != 200:
        raise _status_error(response, base_url)
    try:
        ids = _model_ids(response.json())
    except ValueError:
        ids = None
    if ids is None:
        raise ModelServerError(f"The server at {base_url} answered, but not with a list of models.")
    return ids


async def find_local(
    servers: tuple[tuple[str, int], ...] | None = None, *, seconds: float = PROBE_SECONDS
) -> list[ModelServer]:
    """The model servers that answer on this machine's usual ports, with their models (a server
    with no model loaded is listed too: its address can still be saved once one is pulled)."""
    candidates = LOCAL_SERVERS if servers is None else servers

    async def probe(client: httpx.AsyncClient, name: str, port: int) -> ModelServer | None:
        base_url = f"http://{LOCAL_HOST}:{port}/v1"
        try:
            models = await _list(client, base_url, None, seconds)
        except ModelServerError:
            return None
        return ModelServer(name, base_url, models)

    async with _client(seconds) as client:
        found = await asyncio.gather(*(probe(client, name, port) for name, port in candidates))
    return [server for server in found if server is not None]


async def check_model(
    base_url: str, model: str, api_key: str | None = None, *, seconds: float = CHECK_SECONDS
) -> str:
    """One short chat request to ``model``; its reply's text, or a :class:`ModelServerError`."""
    if not model.strip():
        raise ModelServerError("Choose a model first.")
    body = {
        "model": model,
        "messages": [{"role": "user", "content": CHECK_PROMPT}],
        "max_tokens": 8,
        "stream": False,
    }
    async with _client(seconds) as client:
        try:
            response = await client.post(
                f"{base_url.rstrip('/')}/chat/completions", json=body, headers=_headers(api_key)
            )
        except httpx.HTTPError as exc:
            raise _unreachable(exc, base_url, seconds) from None
    if response.status_code == 404:
        detail = _error_detail(response)
        raise ModelServerError(
            f"The server at {base_url} has no model {model!r}" + (f" ({detail})." if detail else ".")
        )
    if response.status_code != 200:
        raise _status_error(response, base_url)
    try:
        choice = response.json()["choices"][0]
        text = choice["message"].get("content") or ""
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise ModelServerError(
            f"The model {model!r} answered, but not with a chat completion: it cannot serve the tutor."
        ) from None
    if not isinstance(text, str) or (not text.strip() and choice.get("finish_reason") != "length"):
        raise ModelServerError(f"The model {model!r} answered with no text.")
    return text.strip()


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """The model server and model the embedded service's tutor uses."""

    base_url: str
    model: str
    api_key: str | None = None


def embedded_settings(service: Service) -> Settings | None:
    """The settings of the embedded service ``service`` is, which the LLM engine reads on every
    turn; None for a remote."""
    from core.service.local import LocalService

    return service.runtime.settings if isinstance(service, LocalService) else None


def current_choice(service: Service) -> ModelChoice | None:
    """The model server the embedded service uses now, if one is set (None for a remote)."""
    settings = embedded_settings(service)
    if settings is None or not settings.llm_base_url:
        return None
    return ModelChoice(settings.llm_base_url, settings.llm_model, settings.llm_api_key)


async def check_and_save(service: Service, address: str, model: str, api_key: str | None = None) -> str:
    """Check ``model`` of the server at ``address`` with one short request and, only when it
    answers, make it the embedded service's model: at once, and for the next start. The model's
    reply; a :class:`ModelServerError` (nothing saved) otherwise."""
    settings = embedded_settings(service)
    if settings is None:
        raise ModelServerError(
            "The tutor's model server of a remote service is set on that server; connect to the "
            "embedded service to choose one here."
        )
    base_url = base_url_of(address)
    reply = await check_model(base_url, model, api_key or None)
    choice = ModelChoice(base_url, model, api_key or None)
    await asyncio.to_thread(_write, choice)
    settings.llm_base_url, settings.llm_model, settings.llm_api_key = (
        choice.base_url,
        choice.model,
        choice.api_key,
    )
    return reply


def _write(choice: ModelChoice) -> None:
    """The choice into its file, whole or not at all, readable by its owner only (it may hold an
    API key)."""
    path = model_server_file()
    values = dict(zip(MODEL_SERVER_KEYS, (choice.base_url, choice.model, choice.api_key), strict=True))
    text = json.dumps({k: v for k, v in values.items() if v}, indent=2)
    partial = path.with_suffix(".json.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text + "\n")
    partial.replace(path)
