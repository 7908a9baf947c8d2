"""The console: a local web app reading every run in a run store (`gg console`).

The app is `gg.console.app.create_app`; nothing is imported here, so the command line can register
`gg console` without loading the web stack until the console is served.
"""
