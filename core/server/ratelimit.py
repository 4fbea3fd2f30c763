"""A per-token rate limit, applied by the server's middleware (core.server.middleware): 429 with the API's error
body and Retry-After.

Each bearer token has a token bucket that holds `per_minute` requests and refills at
`per_minute / 60` per second, so a client may burst up to a minute's budget and then keeps the
steady rate. The buckets live in this process's memory: with several server processes (or
instances) each has its own buckets, so a token may make up to N × `per_minute` requests a
minute across N processes (docs/deploy.md). Counting in the database would make the limit exact
across processes but cost a write per request, which the hot path of compute cannot afford.

Requests without a bearer token are not limited here: authentication refuses them without
touching the database. Buckets are kept by the token's hash, never the token, and only for the
most recent tokens, so a flood of made-up tokens cannot grow the memory without bound. The hash
is Python's own string hash (SipHash with a key drawn when the process starts): it cannot be
turned back into the token, and it costs a fraction of the SHA-256 that identifies a token in
the database, which the route computes anyway (two tokens sharing a bucket by a 64-bit
collision would only share a rate).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass

from starlette.types import Scope

from core.api import TooManyRequests

MAX_BUCKETS = 10_000


@dataclass
class Bucket:
    tokens: float
    updated: float


class TokenBuckets:
    """The buckets of one process; `take` answers 0 when a request may pass, else the seconds to wait."""

    def __init__(self, per_minute: int, max_buckets: int = MAX_BUCKETS) -> None:
        self.capacity = float(per_minute)
        self.refill_per_second = per_minute / 60.0
        self.max_buckets = max_buckets
        self._buckets: OrderedDict[int, Bucket] = OrderedDict()

    def take(self, key: int, now: float) -> float:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.capacity, now)
            while len(self._buckets) > self.max_buckets:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(
                self.capacity, bucket.tokens + (now - bucket.updated) * self.refill_per_second
            )
            bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.refill_per_second


def refusal(buckets: TokenBuckets, scope: Scope) -> TooManyRequests | None:
    """The 429 to answer a request with (with Retry-After), or None when it may pass. Requests
    without a bearer token pass: authentication refuses them."""
    token = _bearer_token(scope)
    if token is None:
        return None
    wait = buckets.take(hash(token), time.monotonic())
    if wait <= 0:
        return None
    retry_after = max(1, math.ceil(wait))
    return TooManyRequests(
        f"rate limit of {int(buckets.capacity)} requests per minute for this token exceeded; "
        f"retry after {retry_after} s",
        headers={"Retry-After": str(retry_after)},
    )


def _bearer_token(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            credentials = credentials.strip()
            return credentials if scheme.lower() == "bearer" and credentials else None
    return None
