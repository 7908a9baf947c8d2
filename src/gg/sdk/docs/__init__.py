"""The SDK's documentation, from one signature catalogue per arm (`signatures`, spelled through a
`language.LanguageSpec`): one agent's pages (`pages`) and index (`index`), its surface built for
its arm (`surface`), code modules documented (`codemodules`, `pymodules`, keyed by `modulekeys`),
the calls that read it (`operations`) and the reference a person reads (`reference`, `gg docs`)."""
