"""The process's one TLS context for outgoing HTTPS: a remote service, a language model server.

httpx builds a TLS context for every client it makes, reading the CA bundle each time (about 35 ms
of CPU on this project's 2-core machine, against 1 ms for a client given a context), and the
tutor's language-model engine opens a client for each turn. The context is built once, with
httpx's own defaults (certifi's bundle, SSL_CERT_FILE and SSL_CERT_DIR honoured).
"""

from __future__ import annotations

import ssl
from functools import cache

import httpx


@cache
def tls_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()
