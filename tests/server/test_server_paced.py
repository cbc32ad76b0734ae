"""The websocket protocol parses a client's frames at the application's pace: a flood of
small frames is not parsed into thousands of queued messages, and nothing is lost."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import uvicorn
import websockets
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from spades.server.listen import WS_LIMIT, make_server
from spades.server.paced import SLICE, PacedWebSocket

#: Frames the client sends: far more than one read of the server's (256 KB) holds.
FRAMES = 30_000
#: A frame of the flood on the wire: its text, a 2-byte head and a 4-byte mask.
FRAME_BYTES = len('{"n":12345}') + 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def flooded_app(seen: dict[str, Any]) -> Any:
    """An ASGI app that reads one message, lets the client fill the socket, reads one more,
    notes how many messages the protocol then has parsed and queued, and reads the rest."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        texts = [(await receive())["text"]]
        await asyncio.sleep(0.5)  # the client sends meanwhile: the kernel's buffers fill
        texts.append((await receive())["text"])
        await asyncio.sleep(0.1)  # the protocol reads and parses what it will
        seen["queued"] = receive.__self__.queue.qsize()
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                break
            texts.append(message["text"])
            if message["text"] == "end":
                break
        seen["texts"] = texts
        await send({"type": "websocket.send", "text": "done"})
        await send({"type": "websocket.close"})

    return app


async def flood(protocol: type[Any]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    big = "x" * (WS_LIMIT - 1024)  # one message over many slices
    port = free_port()
    config = uvicorn.Config(flooded_app(seen), host="127.0.0.1", port=port,
                            ws=protocol, ws_max_size=WS_LIMIT, log_level="warning")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        async with websockets.connect(f"ws://127.0.0.1:{port}/", max_size=None,
                                      compression=None) as ws:  # frames of known size
            for n in range(FRAMES):
                await ws.send(f'{{"n":{n:05d}}}')
                if n == FRAMES // 2:
                    await ws.send(big)
            await ws.send("end")
            seen["answer"] = await asyncio.wait_for(ws.recv(), 30)
    finally:
        server.should_exit = True
        await serving
    seen["expected"] = [f'{{"n":{n:05d}}}' for n in range(FRAMES // 2 + 1)] + [big] + [
        f'{{"n":{n:05d}}}' for n in range(FRAMES // 2 + 1, FRAMES)] + ["end"]
    return seen


def test_a_flood_is_parsed_a_slice_at_a_time_and_nothing_is_lost() -> None:
    seen = asyncio.run(flood(PacedWebSocket))
    assert seen["answer"] == "done"
    assert seen["texts"] == seen["expected"]  # every message, in order, the big one whole
    # at most one slice's frames wait parsed (uvicorn's own: a whole read's, below)
    assert seen["queued"] <= SLICE // FRAME_BYTES + 1, seen["queued"]


def test_uvicorns_own_protocol_parses_a_whole_read_of_a_flood() -> None:
    """The control: what the test above would see without ``PacedWebSocket`` (if uvicorn
    comes to parse at the application's pace by itself, this fails: ``PacedWebSocket`` can
    then go)."""
    seen = asyncio.run(flood(WebSocketsSansIOProtocol))
    assert seen["texts"] == seen["expected"]
    assert seen["queued"] > 4 * (SLICE // FRAME_BYTES + 1), seen["queued"]


def test_spades_serve_uses_the_paced_protocol() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("not called")

    server = make_server(app, "127.0.0.1", free_port())
    assert server.config.ws is PacedWebSocket


@pytest.mark.parametrize("split", [1, 7, SLICE - 3, SLICE + 5])
def test_a_message_split_anywhere_between_reads_is_whole(split: int) -> None:
    """Reads that end inside a frame (or inside a slice) still give whole messages."""

    async def scenario() -> list[str]:
        received: list[str] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            while (message := await receive())["type"] == "websocket.receive":
                received.append(message["text"])
                if message["text"] == "end":
                    break
            await send({"type": "websocket.close"})

        port = free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=port, ws=PacedWebSocket,
                                log_level="warning")
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
                frames = b"".join(websockets.frames.Frame(
                    websockets.frames.Opcode.TEXT, text.encode()).serialize(
                        mask=True, extensions=[])
                    for text in ("a" * 3000, "b" * 5000, "c", "end"))
                transport = ws.transport
                transport.write(frames[:split])
                await asyncio.sleep(0.05)
                transport.write(frames[split:])
                await asyncio.wait_for(ws.wait_closed(), 10)
        finally:
            server.should_exit = True
            await serving
        return received

    assert asyncio.run(scenario()) == ["a" * 3000, "b" * 5000, "c", "end"]


def test_spades_serve_sends_frames_uncompressed_to_a_client_that_offers_deflate() -> None:
    """A browser offers permessage-deflate; ``spades serve`` declines it (its frames, a few
    hundred bytes, cost more CPU to compress than they save), and the socket works."""

    async def scenario() -> tuple[str | None, str]:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "websocket":
                return
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": "x" * 2000})
            await receive()  # the client's close

        server = make_server(app, "127.0.0.1", free_port())
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        try:
            port = server.config.port
            async with websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
                assert ws.request is not None and ws.response is not None
                assert "permessage-deflate" in ws.request.headers["Sec-WebSocket-Extensions"]
                text = await asyncio.wait_for(ws.recv(), 10)
                return ws.response.headers.get("Sec-WebSocket-Extensions"), str(text)
        finally:
            server.should_exit = True
            await serving

    negotiated, text = asyncio.run(scenario())
    assert negotiated is None
    assert text == "x" * 2000
