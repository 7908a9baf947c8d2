"""The Python worker: a process of its own that runs programs in Monty and relays their SDK calls
to gg. Its modules import the standard library and `pydantic_monty` only (plus `channel`, which gg
shares), so the process starts fast and holds nothing of gg's state."""
