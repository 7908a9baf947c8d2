"""The public Python API's implementation; `gg/__init__.py` is its one front door (`gg.run`,
`gg.load`, `gg.open_store`, `gg.family`). Each module here imports the machinery it drives only when
it is called, so `import gg` stays as light as `gg --version`."""
