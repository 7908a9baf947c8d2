"""OpenTelemetry export: a run's events folded into GenAI spans (`tree`, `steps`, `attributes`,
`marks`, `content`, under the names of `names`), shipped live by a telemetry sink (`sink`) or from
the run store by `gg export otel` (`command`, reading through `record`), over OTLP/HTTP
(`shipper`, from a thread that loads the SDK through `sdk_edge`) or as OTLP JSON (`otlp_json`)."""
