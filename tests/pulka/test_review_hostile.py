"""The review server against malformed and hostile requests, through a real server: every one
answered 4xx with a one-line JSON error, no traceback logged, the store unchanged."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from review_fixture import SHEET1, build_store, call, serve

from pulka.review import ReviewServer, make_server
from pulka.review.checks import TOKEN_HEADER
from pulka.review.files import TOKEN_META
from pulka.store.database import Store

KEY = "entry:C:pool:2"


@pytest.fixture
def server(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> Iterator[ReviewServer]:
    caplog.set_level(logging.DEBUG, logger="pulka")
    with serve(build_store(tmp_path)) as running:
        yield running
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert tracebacks == []
    with Store(running.db) as store:
        assert store.conn.execute("SELECT count(*) FROM decisions").fetchone()[0] == 0


def address(server: ReviewServer) -> tuple[str, int]:
    parts = urlsplit(server.url)
    return parts.hostname or "", parts.port or 80


def raw(server: ReviewServer, request: bytes, hang_up: bool = False) -> bytes:
    """Send bytes on a socket; the answer (nothing when we hang up first)."""
    with socket.create_connection(address(server), timeout=10) as sock:
        sock.sendall(request)
        if hang_up:
            return b""
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def one_line_error(answer: Any) -> str:
    assert isinstance(answer, dict) and set(answer) == {"error"}, answer
    assert "\n" not in answer["error"] and "Traceback" not in answer["error"]
    return str(answer["error"])


BAD_DECISIONS: list[tuple[str, Any, int]] = [
    ("a list", [1, 2], 400),
    ("a string", "decide", 400),
    ("no fields", {}, 400),
    ("no key", {"sheet": SHEET1, "action": "skip"}, 400),
    ("a sheet as a list", {"sheet": [SHEET1], "key": KEY, "action": "skip"}, 400),
    ("a key as an object", {"sheet": SHEET1, "key": {"k": 1}, "action": "skip"}, 400),
    ("a key as a number", {"sheet": SHEET1, "key": 7, "action": "skip"}, 400),
    ("an action as a list", {"sheet": SHEET1, "key": KEY, "action": ["skip"]}, 400),
    ("a candidate as text", {"sheet": SHEET1, "key": KEY, "action": "accept",
                             "candidate": "1"}, 400),
    ("a candidate true", {"sheet": SHEET1, "key": KEY, "action": "accept",
                          "candidate": True}, 400),
    ("a huge candidate", {"sheet": SHEET1, "key": KEY, "action": "accept",
                          "candidate": 10**30}, 400),
    ("a value as an object", {"sheet": SHEET1, "key": KEY, "action": "type",
                              "value": {"a": 1}}, 400),
    ("a huge value", {"sheet": SHEET1, "key": KEY, "action": "type", "value": 10**30}, 400),
    ("a float value", {"sheet": SHEET1, "key": KEY, "action": "type", "value": 1.5}, 400),
    ("a long number", {"sheet": SHEET1, "key": KEY, "action": "type", "value": "9" * 5000},
     400),
    ("a row of a list", {"sheet": SHEET1, "key": "row:17", "action": "type",
                         "value": "[1, 2]"}, 400),
    ("an unknown cell", {"sheet": SHEET1, "key": "entry:Q:pool:99", "action": "skip"}, 404),
    ("an unknown sheet", {"sheet": "S-000000", "key": KEY, "action": "skip"}, 404),
    ("a long sheet id", {"sheet": "S" * 5000, "key": KEY, "action": "skip"}, 400),
]


@pytest.mark.parametrize(("name", "body", "status"), BAD_DECISIONS,
                         ids=[b[0] for b in BAD_DECISIONS])
def test_a_malformed_decision_is_refused_in_one_line(server: ReviewServer, name: str,
                                                     body: Any, status: int) -> None:
    got, answer = call(server, "/api/decide", body)
    assert got == status, answer
    one_line_error(answer)


@pytest.mark.parametrize("body", [b"{", b"\xff\xfe{}", b"[" * 60_000, b"1" * 5000,
                                  b'{"sheet": NaN}', b"", b"null"])
def test_a_body_that_is_no_json_object_is_refused(server: ReviewServer, body: bytes) -> None:
    got, answer = call(server, "/api/decide", raw=body)
    assert got == 400, answer
    one_line_error(answer)


def test_a_foreign_origin_is_refused_even_with_the_token(server: ReviewServer) -> None:
    body = {"sheet": SHEET1, "key": KEY, "action": "illegible"}
    got, answer = call(server, "/api/decide", body, headers={"Origin": "http://evil.example"})
    assert got == 403 and "evil.example" in one_line_error(answer)
    got, answer = call(server, "/api/undo", {}, headers={"Origin": "null"})
    assert got == 403


def test_a_request_without_the_pages_token_is_refused(server: ReviewServer) -> None:
    body = {"sheet": SHEET1, "key": KEY, "action": "illegible"}
    for token in ("", "guess", server.token[:-1]):
        got, answer = call(server, "/api/decide", body, headers={TOKEN_HEADER: token})
        assert got == 403 and "token" in one_line_error(answer)
    host, port = address(server)
    request = (f"POST /api/undo HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: "
               f"application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}")
    assert raw(server, request.encode()).startswith(b"HTTP/1.1 403")


def test_the_page_carries_the_token_and_its_own_origin_is_accepted(server: ReviewServer
                                                                   ) -> None:
    got, page = call(server, "/")
    assert got == 200
    assert f'<meta name="{TOKEN_META}" content="{server.token}">'.encode() in page
    origin = server.url.rstrip("/")
    got, answer = call(server, "/api/decide", {"sheet": SHEET1, "key": KEY, "action": "skip"},
                       headers={"Origin": origin})
    assert got == 200, answer


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example",
                                  ""])
def test_a_host_other_than_this_one_is_refused(server: ReviewServer, host: str) -> None:
    got, answer = call(server, "/api/queue", headers={"Host": host})
    assert got == 421
    one_line_error(answer)


@pytest.mark.parametrize("request_bytes", [
    b"GARBAGE\r\n\r\n",
    b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"POST /api/decide HTTP/1.1\r\nContent-Length: -5\r\nContent-Type: application/json\r\n\r\n",
    b"POST /api/decide HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n"
    b"Content-Type: application/json\r\n\r\n",
    b"GET /api/sheet/%ff%fe HTTP/1.1\r\n\r\n",
    b"BREW /api/queue HTTP/1.1\r\n\r\n",
])
def test_a_broken_request_gets_a_json_error(server: ReviewServer, request_bytes: bytes) -> None:
    if b"Host:" not in request_bytes and b"HTTP/1.1\r\n" in request_bytes:
        host, port = address(server)
        request_bytes = request_bytes.replace(b"HTTP/1.1\r\n",
                                              f"HTTP/1.1\r\nHost: {host}:{port}\r\n".encode(), 1)
    answer = raw(server, request_bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    assert 400 <= status < 500, answer[:200]
    one_line_error(json.loads(body))


def test_clients_that_hang_up_leave_no_traceback(server: ReviewServer) -> None:
    host, port = address(server)
    head = (f"POST /api/decide HTTP/1.1\r\nHost: {host}:{port}\r\n{TOKEN_HEADER}: "
            f"{server.token}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n")
    raw(server, head.encode() + b'{"sheet": "', hang_up=True)
    raw(server, b"GET /api/queue HTT", hang_up=True)
    raw(server, f"GET /api/queue HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode(), hang_up=True)
    time.sleep(0.3)
    assert call(server, "/api/queue")[0] == 200


def test_bound_to_every_interface_an_ip_address_is_accepted_and_a_name_is_not(
        tmp_path: Path) -> None:
    running = make_server(build_store(tmp_path), host="0.0.0.0", who="anna")
    threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True).start()
    try:
        port = address(running)[1]
        assert call(running, "/api/queue", headers={"Host": f"192.168.1.5:{port}"})[0] == 200
        assert call(running, "/api/queue", headers={"Host": f"[::1]:{port}"})[0] == 200
        assert call(running, "/api/queue", headers={"Host": f"evil.example:{port}"})[0] == 421
    finally:
        running.shutdown()
        running.server_close()
