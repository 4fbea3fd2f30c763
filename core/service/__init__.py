"""The Service interface and how to get one: embedded (LocalService) or remote (RemoteService)."""

from __future__ import annotations

from core.config import Settings
from core.service.base import Service


async def connect(settings: Settings) -> Service:
    """The service the settings choose: a remote by URL and token, else the embedded default.

    A remote is checked first, so a wrong URL or token fails here with a plain reason
    (unreachable, refused token, not this API) rather than on the first real call.
    The caller closes the service with ``await service.aclose()``.
    """
    if settings.remote_url:
        from core.service.remote import RemoteService

        remote = RemoteService(
            settings.remote_url,
            settings.token,
            timeout=settings.remote_timeout_seconds,
            default_tenant=settings.default_tenant,
        )
        try:
            await remote.check_connection()
        except BaseException:
            await remote.aclose()
            raise
        return remote
    from core.auth import local_principal
    from core.service.local import LocalService
    from core.service.runtime import Runtime

    runtime = await Runtime.open(settings)
    return LocalService(runtime, local_principal(settings.default_tenant), owns_runtime=True)


__all__ = ["Service", "connect"]
