"""The websocket protocol of ``spades serve``: uvicorn's sans-I/O protocol, parsing what a
client sent only as fast as the application reads it.

uvicorn's protocol stops reading a socket once a message waits in its queue, but only after
it has parsed the whole read it got (up to 256 KB): a client sending tiny frames as fast
as its socket takes them, and reading nothing, has thousands of frames parsed and queued
each time it connects, though the application reads a few a second at most
(``Limits``) and none from a client that does not read (``Connection.flowing``). Here a
read is parsed a slice at a time, and only while the queue is empty; the rest of it waits
as bytes, unparsed, and reading stays paused until the application has taken the last
message parsed from it. What one socket holds is at most one read's bytes, not thousands of
messages; a client that sends a message and waits for the answer (the page) is parsed at
once, as before."""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: Bytes parsed at a time: a person's intent fits in one slice; a flood's read takes many.
SLICE = 4096


class PacedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol, parsing a read only while its queue is empty."""

    _unparsed = b""  # the part of the last read not parsed yet
    _at = 0  # where the unparsed part begins in it

    def data_received(self, data: bytes) -> None:
        if self._at < len(self._unparsed):  # not expected: reading pauses while bytes wait
            data = self._unparsed[self._at:] + data
        self._unparsed, self._at = data, 0
        self._parse()

    def _parse(self) -> None:
        """Parse slices of the unparsed bytes until a message is queued (or they are all
        parsed); if some are left, read nothing more until they are. Once the application
        has closed, everything is parsed at once (nothing is queued then): the client's close
        frame ends the closing handshake."""
        data = self._unparsed
        while (self._at < len(data) and (self.queue.empty() or self.close_sent)
               and not self.transport.is_closing()):
            piece = data[self._at:self._at + SLICE]
            self._at += len(piece)
            super().data_received(piece)
        if self._at >= len(data):
            self._unparsed, self._at = b"", 0
        elif not self.read_paused and not self.transport.is_closing():
            self.read_paused = True
            self.transport.pause_reading()

    async def receive(self) -> Any:
        message = await self.queue.get()
        if self.queue.empty():
            self._parse()
        if self.read_paused and self.queue.empty() and not self._unparsed:
            self.read_paused = False
            self.transport.resume_reading()
        return message
