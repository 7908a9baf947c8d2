"""gg: a harness for LLM agents that answer every turn with a whole program."""

__version__ = "0.1.0"
