"""The web app's login: asked beyond loopback, checked over real HTTP, and private storage."""

from __future__ import annotations

import re
import stat

import httpx
import ifaddr
import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from core.config import Settings
from core.http import tls_context
from tests.conftest import ServerThread, free_port
from tests.untranslated import english_on_screen
from webui.login import (
    LoginRequired,
    is_loopback,
    login_page,
    login_secret,
    startup_lines,
    use_private_storage,
)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("::", False),
        ("studio.school.example", False),
    ],
)
def test_only_loopback_addresses_go_without_a_login(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    assert (login_secret(Settings(host=host)) is None) is loopback


def test_a_configured_password_is_the_secret_and_a_login_can_be_forced_on_loopback() -> None:
    assert login_secret(Settings(host="0.0.0.0", web_password="correct horse")) == "correct horse"
    assert login_secret(Settings(host="127.0.0.1", web_login=True)) is not None
    assert login_secret(Settings(host="0.0.0.0", web_login=False)) is None


@pytest.fixture
def door_url():
    """The login before a stand-in for the pages, as create_web_app puts it: inside the session."""

    async def page(request):
        return PlainTextResponse("the author's studio")

    app = Starlette(
        routes=[Route("/", page), Route("/settings", page), Route("/_nicegui/{path:path}", page)],
        middleware=[
            Middleware(SessionMiddleware, secret_key="k" * 32),
            Middleware(LoginRequired, secret="s3cret-token"),
        ],
    )
    port = free_port()
    with ServerThread(app, port):
        yield f"http://127.0.0.1:{port}"


async def test_without_the_token_a_page_shows_the_login_and_with_it_the_browser_stays_in(door_url) -> None:
    async with httpx.AsyncClient(verify=tls_context(), base_url=door_url) as browser:
        closed = await browser.get("/settings")
        assert closed.status_code == 401 and "Token or password" in closed.text
        assert "the author's studio" not in closed.text
        wrong = await browser.get("/settings", params={"token": "guess"})
        assert wrong.status_code == 401 and "not right" in wrong.text
        opened = await browser.get("/settings", params={"token": "s3cret-token", "tab": "x"})
        assert opened.status_code == 303 and opened.headers["location"] == "/settings?tab=x"
        assert (await browser.get("/")).text == "the author's studio"  # the cookie keeps it open
    async with httpx.AsyncClient(verify=tls_context(), base_url=door_url) as stranger:
        assert (await stranger.get("/")).status_code == 401
        assert (await stranger.get("/_nicegui/static/app.js")).status_code == 200  # assets are public


def test_the_browsers_storage_is_private_and_outside_the_working_directory(tmp_path, monkeypatch) -> None:
    from nicegui.storage import Storage

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("NICEGUI_STORAGE_PATH", raising=False)  # restored after the test
    monkeypatch.setattr(Storage, "path", Storage.path)  # restored after the test
    monkeypatch.chdir(tmp_path)
    path = use_private_storage()
    assert path.is_relative_to(tmp_path / "data") and Storage.path == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o700


async def test_the_login_form_posts_the_secret_and_returns_to_the_page_asked_for(door_url) -> None:
    async with httpx.AsyncClient(verify=tls_context(), base_url=door_url) as browser:
        form = await browser.get("/settings", params={"tab": "Versions"})
        assert form.status_code == 401
        assert 'method=post action="/settings?tab=Versions"' in form.text  # never GET: no secret in a URL
        wrong = await browser.post("/settings?tab=Versions", data={"token": "guess"})
        assert wrong.status_code == 401 and "not right" in wrong.text
        opened = await browser.post("/settings?tab=Versions", data={"token": "s3cret-token"})
        assert opened.status_code == 303 and opened.headers["location"] == "/settings?tab=Versions"
        assert "s3cret" not in opened.headers["location"]
        assert (await browser.get("/settings", params={"tab": "Versions"})).text == "the author's studio"
    async with httpx.AsyncClient(verify=tls_context(), base_url=door_url) as stranger:
        too_long = await stranger.post("/", data={"token": "s3cret-token", "padding": "x" * 10_000})
        assert too_long.status_code == 401  # a login is small: a big body is not read


def adapter(*addresses: str | tuple[str, int, int]) -> ifaddr.Adapter:
    ips = [ifaddr.IP(a, 24, "eth0") for a in addresses]
    return ifaddr.Adapter("eth0", "eth0", ips)


def test_the_start_up_lines_give_each_address_of_the_machine_not_the_wildcard() -> None:
    machine = [
        adapter("127.0.0.1", ("::1", 0, 1)),
        adapter("192.168.1.20", ("fe80::1", 0, 2), ("2001:db8::7", 0, 0)),
    ]
    lines = startup_lines(Settings(host="0.0.0.0", port=8000), "tok", machine)
    assert lines[1:3] == [
        "  http://192.168.1.20:8000/?token=tok",
        "  http://127.0.0.1:8000/?token=tok (this machine only)",
    ]
    assert not any("//0.0.0.0" in line for line in lines)
    assert "OpenAPI at http://192.168.1.20:8000/docs" in lines
    both = startup_lines(Settings(host="::", port=8000, learner_tasks=["t1"]), "tok", machine)
    assert "  http://[2001:db8::7]:8000/learn?token=tok" in both  # a link-local address is of no use
    assert not any("fe80" in line for line in both)
    [alone] = startup_lines(Settings(host="127.0.0.1", port=8000), None, machine)
    assert alone.endswith(": http://127.0.0.1:8000/ (OpenAPI at http://127.0.0.1:8000/docs)")


@pytest.mark.parametrize(
    ("accept_language", "words"),
    [
        ("de-CH, de;q=0.9, en;q=0.5", ("Anmelden", "Token oder Passwort", "stimmt nicht")),
        ("es, fr;q=0.8, en;q=0.7", ("Se connecter", "Jeton ou mot de passe", "pas correct")),
        ("it-IT", ("Accedi", "Token o password", "non è corretto")),
        ("ja, en;q=0.1", ("Log in", "Token or password", "not right")),
    ],
)
async def test_the_login_page_speaks_the_browsers_language(door_url, accept_language, words) -> None:
    async with httpx.AsyncClient(verify=tls_context(), base_url=door_url) as browser:
        page = await browser.get("/", params={"token": "guess"}, headers={"Accept-Language": accept_language})
    assert page.status_code == 401
    assert all(word in page.text for word in words), page.text


@pytest.mark.parametrize("language", ["de", "fr", "it"])
def test_the_login_page_has_no_english_left(language: str) -> None:
    page = login_page(wrong=True, language=language).body.decode()
    text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", page, flags=re.S)
    assert english_on_screen(text, language) == []


def test_a_browser_that_names_no_language_the_studio_speaks_gets_the_studios() -> None:
    page = login_page(wrong=False, language="fr").body.decode()
    assert "<html lang=fr>" in page and "Se connecter" in page
