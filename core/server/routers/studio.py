"""Extension: what this service is and offers (RemoteService uses it to detect the extensions)."""

from fastapi import APIRouter

from core.api import ServiceInfo
from core.server.deps import ServiceDep

router = APIRouter(tags=["extensions"])


@router.get("/studio/info", response_model=ServiceInfo)
async def info(service: ServiceDep) -> ServiceInfo:
    return await service.info()
