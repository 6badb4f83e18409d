"""Why a connection to a playtak server failed, in words (sans-IO).

`classify(step, error, ...)` maps what one step of a connect raised (or `EOFError` when the
server simply hung up, `NotAnUpgrade` when its answer could not be read) to a
`ConnectFailure`: the cause as a user reads it, and whether
trying again can help. Permanent: a certificate that does not verify or does not match the
host, a server that does not speak TLS on a wss:// port, a websocket upgrade answered with
an HTTP status below 500. Everything else (refused, reset, timed out, 5xx, name lookup) is
transient and retried with backoff.
"""

from __future__ import annotations

import enum
import errno
import http
import socket
import ssl

import attrs
import trio
import trio_websocket

from adapters.playtak.errors import PlaytakError
from tei.errors import leaves

#: OpenSSL's verify codes for a certificate issued to another host name or IP address
_NAME_MISMATCH = {62, 64}


class NotAnUpgrade(PlaytakError):
    """The server's answer to the websocket upgrade could not be read."""


class Step(enum.Enum):
    """The steps of a connect, in order."""

    CONNECT = "connect"  # name lookup and TCP connect
    TLS = "TLS handshake"
    UPGRADE = "websocket upgrade"


@attrs.frozen
class ConnectFailure:
    """Why a connect failed, in words, and whether trying again can help."""

    step: Step
    cause: str
    permanent: bool

    def __str__(self) -> str:
        return self.cause


def classify(
    step: Step, error: BaseException, *, host: str, port: int, timeout: float
) -> ConnectFailure:
    """What `error`, raised by `step` towards host:port under a `timeout` s deadline, means."""
    if isinstance(error, trio.TooSlowError):
        return ConnectFailure(step, _timed_out(step, timeout), permanent=False)
    if isinstance(error, trio_websocket.ConnectionRejected):
        return _rejected(error)
    if isinstance(error, NotAnUpgrade):
        cause = (
            "the server's answer to the websocket upgrade cannot be read (not a websocket server?)"
        )
        return ConnectFailure(step, cause, permanent=False)
    root = _root(error)
    if isinstance(root, ssl.SSLCertVerificationError):
        return _unverified(root)
    if isinstance(root, ssl.SSLError) and not isinstance(
        root, ssl.SSLEOFError | ssl.SSLZeroReturnError
    ):
        if root.reason == "WRONG_VERSION_NUMBER":
            cause = (
                "TLS handshake failed: the server does not speak TLS on this port "
                "(a ws:// or tcp:// server?)"
            )
            return ConnectFailure(step, cause, permanent=True)
        return ConnectFailure(step, f"TLS handshake failed: {root.reason or root}", permanent=False)
    if isinstance(root, EOFError | ssl.SSLEOFError | ssl.SSLZeroReturnError):
        return ConnectFailure(
            step, f"the server closed the connection during the {step.value}", permanent=False
        )
    if isinstance(root, socket.gaierror):
        cause = f"cannot resolve the host name {host!r}: {root.strerror or root}"
        return ConnectFailure(step, cause, permanent=False)
    if isinstance(root, OSError):
        return ConnectFailure(step, _os_error(root, step, port), permanent=False)
    detail = f"{type(root).__name__}: {root}" if str(root) else type(root).__name__
    return ConnectFailure(step, f"{step.value} failed: {detail}", permanent=False)


def lost_in_words(error: BaseException) -> str:
    """An established connection that broke (reset, closed, a websocket close frame)."""
    if isinstance(error, trio_websocket.ConnectionClosed) and error.reason is not None:
        code, reason = error.reason.code, error.reason.reason
        if code == 1000:
            return "the server closed the connection"
        if code == 1006:
            return "the connection dropped without a websocket close"
        return f"the server closed the connection (websocket code {code}" + (
            f": {reason})" if reason else ")"
        )
    root = _root(error)
    if isinstance(root, OSError) and root.errno is not None:
        return _os_error(root, None, None)
    return str(root) or type(root).__name__


def _root(error: BaseException) -> BaseException:
    """The exception that says what happened: through trio's BrokenResourceError and the
    group of its "all attempts to connect failed" error."""
    for _ in range(8):  # a chain this deep says no more
        cause = error.__cause__
        if isinstance(error, trio.BrokenResourceError) and cause is not None:
            error = cause
        elif isinstance(cause, BaseExceptionGroup) and cause.exceptions:
            inner = leaves(cause)
            telling = [e for e in inner if not isinstance(e, ConnectionRefusedError)]
            error = (telling or inner)[0]
        else:
            break
    return error


def _timed_out(step: Step, timeout: float) -> str:
    if step is Step.CONNECT:
        return f"no connection after {timeout:g} s (name lookup and TCP connect timed out)"
    if step is Step.TLS:
        return (
            f"the TLS handshake timed out after {timeout:g} s (the server took the "
            "connection but did not answer)"
        )
    return f"no answer to the websocket upgrade within {timeout:g} s"


def _unverified(error: ssl.SSLCertVerificationError) -> ConnectFailure:
    message = str(error.verify_message or error.reason or error).rstrip(".")
    if error.verify_code in _NAME_MISMATCH:
        cause = f"TLS handshake failed: the server's certificate names another host: {message}"
    else:
        cause = (
            f"TLS handshake failed: certificate verify failed: {message} (the server's "
            "certificate is not trusted: add its authority with --ca-file or SSL_CERT_FILE)"
        )
    return ConnectFailure(Step.TLS, cause, permanent=True)


def _rejected(error: trio_websocket.ConnectionRejected) -> ConnectFailure:
    status = error.status_code
    try:
        phrase = " " + http.HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    said = (error.body or b"").decode("utf-8", "replace").strip().splitlines()
    detail = f": {said[0][:120]}" if said else ""
    cause = f"the server refused the websocket upgrade with HTTP {status}{phrase}{detail}"
    return ConnectFailure(Step.UPGRADE, cause, permanent=status < 500)


def _os_error(error: OSError, step: Step | None, port: int | None) -> str:
    during = f" during the {step.value}" if step is not None and step is not Step.CONNECT else ""
    if error.errno == errno.ECONNREFUSED:
        return "connection refused" + (f" (nothing listens on port {port})" if port else "")
    if error.errno == errno.ECONNRESET:
        return f"connection reset by the server{during}"
    if error.errno in (errno.EPIPE, errno.ECONNABORTED):
        return f"the connection broke{during}"
    words = error.strerror or str(error) or type(error).__name__
    return f"network error{during}: {words}"
