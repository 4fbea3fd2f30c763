"""The principals' cache: one lookup however many requests ask at once, and nothing kept past its TTL."""

from __future__ import annotations

import asyncio

import pytest

from core.service.runtime import TimedCache


class Lookup:
    def __init__(self, result: object = "principal", error: Exception | None = None) -> None:
        self.calls = 0
        self.result, self.error = result, error

    async def __call__(self) -> object:
        self.calls += 1
        await asyncio.sleep(0.01)
        if self.error:
            raise self.error
        return self.result


async def test_concurrent_callers_share_one_lookup():
    cache, lookup = TimedCache(ttl=60), Lookup()
    results = await asyncio.gather(*(cache.get("token", lookup) for _ in range(32)))
    assert results == ["principal"] * 32 and lookup.calls == 1
    assert await cache.get("token", lookup) == "principal" and lookup.calls == 1


async def test_an_entry_is_looked_up_again_after_its_ttl():
    cache, lookup = TimedCache(ttl=0.05), Lookup()
    await cache.get("token", lookup)
    await asyncio.sleep(0.06)
    await cache.get("token", lookup)
    assert lookup.calls == 2


async def test_unknown_and_failed_lookups_are_not_kept():
    cache = TimedCache(ttl=60)
    unknown = Lookup(result=None)
    assert await cache.get("bad", unknown) is None and await cache.get("bad", unknown) is None
    assert unknown.calls == 2
    failing = Lookup(error=ConnectionError("database down"))
    outcomes = await asyncio.gather(*(cache.get("t", failing) for _ in range(3)), return_exceptions=True)
    assert all(isinstance(o, ConnectionError) for o in outcomes) and failing.calls == 1
    with pytest.raises(ConnectionError):
        await cache.get("t", failing)
    assert failing.calls == 2
