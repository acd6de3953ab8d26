"""The least a stream line can cost under Granian (RSGI, as ``dragonhall serve``): an app that only fans frames out.

``fanout_floor.py`` serves it. Every stream it answers is a queue and a task that sends what
is queued, as ``api.stream_hub`` holds a stream; a producer task puts one frame on ``GROUP``
streams at a time (the streams of one game, 1,000 over 32 games), ``FANOUT_RATE`` frames a
second in all, and builds nothing: what the server's CPU does is the sends.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from granian.rsgi import ProtocolClosed

GROUP = 31
FRAME = (
    b'{"type":"events","version":123,"events":[{"version":123,"at":"2026-11-27T23:00:00+00:00",'
    b'"type":"dice_rolled","source":"rules","data":{"seat":0,"dice":[1,2,3,4,5,6]},"awaiting":[1]}],'
    b'"awaiting":[1],"status":"active","legal_moves":null,"clocks":null}\n'
)


def frame(length: int) -> bytes:
    """``FRAME`` padded to ``length`` bytes (a ``pad`` field of spaces), as long as the lines a bench
    compares the floor with; ``FRAME`` itself where it is already as long."""
    pad = length - len(FRAME) - len(b',"pad":""')
    return FRAME if pad <= 0 else FRAME[:-2] + b',"pad":"' + b" " * pad + b'"}\n'


_queues: list[asyncio.Queue[bytes]] = []
_producer: list[asyncio.Task[None]] = []


async def _produce(rate: float, line: bytes) -> None:
    period = GROUP / rate
    due = time.monotonic()
    turn = 0
    while True:
        due += period
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        held = len(_queues)
        if held < GROUP:
            continue
        for k in range(GROUP):
            _queues[(turn * GROUP + k) % held].put_nowait(line)
        turn += 1


class App:
    """The RSGI app: every request is a stream that never ends."""

    async def __rsgi__(self, scope: Any, proto: Any) -> None:
        if scope.proto != "http":
            return
        if not _producer:
            line = frame(int(os.environ.get("FANOUT_FRAME_BYTES", "0")))
            _producer.append(asyncio.ensure_future(_produce(float(os.environ.get("FANOUT_RATE", "10000")), line)))
        transport = proto.response_stream(200, [("content-type", "application/x-ndjson")])
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        _queues.append(queue)
        try:
            while True:
                await transport.send_bytes(await queue.get())
        except ProtocolClosed:  # the client closed the stream: it ends
            _queues.remove(queue)


app = App()
