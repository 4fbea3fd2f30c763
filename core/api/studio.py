"""Extension: what a service is and offers, so that a UI can hide what a remote lacks."""

from __future__ import annotations

from typing import Literal

from core.api.common import ApiModel


class ServiceInfo(ApiModel):
    name: str = "Feedback Studio"
    version: str
    apiVersion: str
    mode: Literal["local", "remote"] = "local"
    principal: str
    defaultTenantId: str
    tenants: list[str]
    permissions: dict[str, list[str]]
    extensions: bool = True
