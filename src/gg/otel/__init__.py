"""OpenTelemetry export: a run's events folded into GenAI spans (`tree`, `steps`, `attributes`,
`marks`, `content`, under the names of `names`), shipped live by a telemetry sink (`sink`) or from
the run store by `gg export otel` (`command`, reading through `record`), over OTLP/HTTP
(`shipper`, the one module that imports the SDK) or as OTLP JSON (`otlp_json`)."""
