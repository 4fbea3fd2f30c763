"""FastAPI's native OpenTelemetry is a deployment choice (docs/deploy.md): off unless set.

The check runs in a Python process of its own: an app built with telemetry on, beside a provider
that stands for an SDK, leaves FastAPI's telemetry state changed for the rest of the process (a
later test's server then never saw its SSE client go away)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from core.config import Settings

CHECK = textwrap.dedent(
    """
    from opentelemetry import trace

    from core.config import Settings
    from core.server.app import create_app


    class ConfiguredProvider(trace.TracerProvider):
        # stands for an SDK's provider: any provider that is not OpenTelemetry's default proxy
        def get_tracer(self, *args, **kwargs):
            return trace.NoOpTracer()


    trace.get_tracer_provider = ConfiguredProvider
    memory = "sqlite+aiosqlite:///:memory:"
    off = create_app(Settings(database_url=memory, seed_demo=False))
    on = create_app(Settings(database_url=memory, seed_demo=False, opentelemetry=True))
    print(off._native_telemetry.enabled(), on._native_telemetry.enabled())
    """
)


def test_fastapi_asks_the_providers_only_when_the_deployment_turns_telemetry_on() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
    assert Settings(database_url="sqlite+aiosqlite:///:memory:").opentelemetry is False
