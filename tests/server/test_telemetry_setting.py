"""FastAPI's native OpenTelemetry is a deployment choice (docs/deploy.md): off unless set."""

from __future__ import annotations

from opentelemetry import trace

from core.config import Settings
from core.server.app import create_app


class ConfiguredProvider(trace.TracerProvider):
    """Stands for an SDK's provider: any provider that is not OpenTelemetry's default proxy."""

    def get_tracer(self, *args: object, **kwargs: object) -> trace.Tracer:
        return trace.NoOpTracer()


def test_fastapi_asks_the_providers_only_when_the_deployment_turns_telemetry_on(monkeypatch):
    monkeypatch.setattr(trace, "get_tracer_provider", ConfiguredProvider)
    memory = "sqlite+aiosqlite:///:memory:"
    off = create_app(Settings(database_url=memory, seed_demo=False))
    on = create_app(Settings(database_url=memory, seed_demo=False, opentelemetry=True))
    assert not off._native_telemetry.enabled()
    assert on._native_telemetry.enabled()
    assert Settings(database_url=memory).opentelemetry is False
