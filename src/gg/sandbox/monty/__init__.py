"""The Monty engine, which runs Python programs: worker processes (`pool`, `worker/`), the guest
SDK bundle (`bundle`) spelled in Python (`spelling`), and how a failure reads (`failure`)."""
