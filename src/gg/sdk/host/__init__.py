"""Host functions: families of plain typed Python functions a program calls like gg's own
(`gg.family`), declared from their annotations, served behind the membrane, recorded and replayed."""
