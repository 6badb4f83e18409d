"""Connect failures in words: the pure classification, from constructed exceptions."""

from __future__ import annotations

import socket
import ssl

import pytest
import trio
import trio_websocket

from adapters.playtak.failures import (
    ConnectFailure,
    NotAnUpgrade,
    Step,
    classify,
    lost_in_words,
)


def _classify(step: Step, error: BaseException) -> ConnectFailure:
    return classify(step, error, host="example.test", port=443, timeout=2.5)


def _broken(cause: BaseException) -> trio.BrokenResourceError:
    """What trio's SSLStream or SocketStream raises: the real error as its cause."""
    error = trio.BrokenResourceError()
    error.__cause__ = cause
    return error


def _unverified(code: int, message: str) -> ssl.SSLCertVerificationError:
    error = ssl.SSLCertVerificationError(
        1, f"[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: {message} (_ssl.c:1006)"
    )
    error.verify_code = code
    error.verify_message = message
    error.reason = "CERTIFICATE_VERIFY_FAILED"
    return error


def _ssl_error(kind: type[ssl.SSLError], reason: str) -> ssl.SSLError:
    error = kind(1, f"[SSL: {reason}] {reason.lower()} (_ssl.c:1006)")
    error.reason = reason
    return error


def test_a_certificate_that_does_not_verify_is_permanent_and_named() -> None:
    failure = _classify(Step.TLS, _broken(_unverified(18, "self-signed certificate")))
    assert failure.permanent and failure.step is Step.TLS
    assert "certificate verify failed: self-signed certificate" in failure.cause
    assert "--ca-file" in failure.cause and "SSL_CERT_FILE" in failure.cause


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (62, "Hostname mismatch, certificate is not valid for 'example.test'."),
        (64, "IP address mismatch, certificate is not valid for '127.0.0.1'."),
    ],
)
def test_a_certificate_for_another_host_is_permanent_and_named(code: int, message: str) -> None:
    failure = _classify(Step.TLS, _broken(_unverified(code, message)))
    assert failure.permanent
    assert failure.cause == (
        f"TLS handshake failed: the server's certificate names another host: {message[:-1]}"
    )


def test_a_server_without_tls_on_a_wss_port_is_permanent() -> None:
    failure = _classify(Step.TLS, _broken(_ssl_error(ssl.SSLError, "WRONG_VERSION_NUMBER")))
    assert failure.permanent
    assert "does not speak TLS" in failure.cause


def test_other_tls_errors_are_named_and_retried() -> None:
    failure = _classify(Step.TLS, _broken(_ssl_error(ssl.SSLError, "TLSV1_ALERT_INTERNAL_ERROR")))
    assert not failure.permanent
    assert failure.cause == "TLS handshake failed: TLSV1_ALERT_INTERNAL_ERROR"


@pytest.mark.parametrize(
    ("step", "error", "words"),
    [
        (
            Step.TLS,
            _broken(_ssl_error(ssl.SSLEOFError, "UNEXPECTED_EOF_WHILE_READING")),
            "the server closed the connection during the TLS handshake",
        ),
        (Step.UPGRADE, EOFError(), "the server closed the connection during the websocket upgrade"),
        (
            Step.UPGRADE,
            _broken(ConnectionResetError(104, "Connection reset by peer")),
            "connection reset by the server during the websocket upgrade",
        ),
        (
            Step.TLS,
            _broken(ConnectionResetError(104, "Connection reset by peer")),
            "connection reset by the server during the TLS handshake",
        ),
        (Step.CONNECT, ConnectionResetError(104, "x"), "connection reset by the server"),
        (Step.UPGRADE, NotAnUpgrade(), "answer to the websocket upgrade cannot be read"),
        (Step.CONNECT, OSError(101, "Network is unreachable"), "network error: Network is"),
        (Step.UPGRADE, RuntimeError("odd"), "websocket upgrade failed: RuntimeError: odd"),
    ],
)
def test_transient_failures_say_what_happened(step: Step, error: BaseException, words: str) -> None:
    failure = _classify(step, error)
    assert not failure.permanent
    assert words in failure.cause


def test_a_refused_connection_is_found_inside_trios_group() -> None:
    error = OSError("all attempts to connect to example.test:443 failed")
    error.__cause__ = ExceptionGroup(
        "all attempts to connect to example.test:443 failed",
        [ConnectionRefusedError(111, "Error connecting to ('::1', 443): Connection refused")] * 2,
    )
    failure = _classify(Step.CONNECT, error)
    assert failure == ConnectFailure(
        Step.CONNECT, "connection refused (nothing listens on port 443)", permanent=False
    )


def test_in_a_mixed_group_the_attempt_that_was_not_refused_tells() -> None:
    error = OSError("all attempts failed")
    error.__cause__ = ExceptionGroup(
        "all attempts failed",
        [ConnectionRefusedError(111, "refused"), OSError(113, "No route to host")],
    )
    assert _classify(Step.CONNECT, error).cause == "network error: No route to host"


def test_a_name_that_does_not_resolve_is_named_and_retried() -> None:
    error = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    failure = _classify(Step.CONNECT, error)
    assert not failure.permanent
    assert failure.cause == "cannot resolve the host name 'example.test': Name or service not known"


@pytest.mark.parametrize(
    ("step", "words"),
    [
        (Step.CONNECT, "no connection after 2.5 s"),
        (Step.TLS, "the TLS handshake timed out after 2.5 s"),
        (Step.UPGRADE, "no answer to the websocket upgrade within 2.5 s"),
    ],
)
def test_timeouts_name_the_step_and_the_seconds(step: Step, words: str) -> None:
    failure = _classify(step, trio.TooSlowError())
    assert not failure.permanent and failure.step is step
    assert words in failure.cause


@pytest.mark.parametrize(
    ("status", "permanent", "words"),
    [
        (400, True, "HTTP 400 Bad Request: offer the websocket subprotocol 'binary'"),
        (403, True, "HTTP 403 Forbidden"),
        (404, True, "HTTP 404 Not Found"),
        (301, True, "HTTP 301 Moved Permanently"),
        (502, False, "HTTP 502 Bad Gateway"),
        (503, False, "HTTP 503 Service Unavailable"),
        (599, False, "HTTP 599"),
    ],
)
def test_an_upgrade_refused_below_500_is_permanent(
    status: int, permanent: bool, words: str
) -> None:
    body = b"offer the websocket subprotocol 'binary'\nmore\n" if status == 400 else None
    failure = _classify(Step.UPGRADE, trio_websocket.ConnectionRejected(status, (), body))
    assert failure.permanent is permanent
    assert failure.cause.startswith("the server refused the websocket upgrade with ")
    assert failure.cause.endswith(words)


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (
            trio_websocket.ConnectionClosed(trio_websocket.CloseReason(1000, None)),
            "the server closed the connection",
        ),
        (
            trio_websocket.ConnectionClosed(trio_websocket.CloseReason(1006, None)),
            "the connection dropped without a websocket close",
        ),
        (
            trio_websocket.ConnectionClosed(trio_websocket.CloseReason(4001, "bye")),
            "the server closed the connection (websocket code 4001: bye)",
        ),
        (
            _broken(ConnectionResetError(104, "Connection reset by peer")),
            "connection reset by the server",
        ),
        (
            trio.ClosedResourceError("this stream was already closed"),
            "this stream was already closed",
        ),
    ],
)
def test_a_lost_connection_is_said_in_words(error: BaseException, words: str) -> None:
    assert lost_in_words(error) == words
