"""The SDK a program calls: every operation declared once (`registry`, the default one in
`catalogue`), what an operation acts on while one program runs (`scope`), and the families, one
module each (`files` with `listing`, `views`, `context`, `tasks`, `board`, `memories`,
`programs`, `delegation`, `session`, `shell`, `skills`). Beside them: the record types a call
hands back (`records`, `types`), shapes and their checks (`shapes`, `shape_check`, `shape_json`),
an agent's surface (`surface`, `codemodule`), a shell command's end and output (`command`), the
documentation (`docs`) and host functions (`host`). Each part is imported from its own module."""
