"""The worker process: `python -I -m gg.sandbox.monty.worker <fd>`, where `<fd>` is its end of the
socket gg made for it.

Protocol (JSON objects over `channel.Channel`):
- gg → worker `init` (the `PyBundle` and the log caps); worker → gg `ready`;
- gg → worker `run` {id, program, libs, timeoutSecs, memoryBytes, checked}; while it runs the worker
  sends `call` {id, op, args} and waits for gg's `reply` {id, ok, value | error}, and `logs` {id,
  lines, dropped} with the lines each print completed; the checked twin
  sends `checked` {id, ms} once the type check passed; the run ends with `done` {id, status, ...};
- the worker ends when the channel closes; it never writes to stdout (stderr is gg's diagnostic
  tail); gg stops a run that outlives its ceiling by killing the worker's process group.
"""

from __future__ import annotations

import socket
import sys

from pydantic_monty import Monty

from gg.sandbox.monty.worker.channel import Channel, ChannelClosed
from gg.sandbox.monty.worker.run import Engine, Job


def main(argv: list[str]) -> int:
    channel = Channel(socket.socket(fileno=int(argv[1])))
    try:
        init = channel.receive()
        with Monty(min_processes=1, max_processes=1) as pool:
            engine = Engine(pool, channel, init)
            channel.send({"t": "ready"})
            try:
                while True:
                    message = channel.receive()
                    if message.get("t") == "run":
                        job = Job.from_message(message)
                        channel.send(engine.run(job))
                        engine.prepare(job)
            finally:
                engine.close()
    except ChannelClosed:
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
