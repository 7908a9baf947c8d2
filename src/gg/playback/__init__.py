"""Playback with a verdict: a stored run played again through the real turn loop from the start it
kept, and held against its record (`verify`: the runner; `verdict`: the pure decider;
`fingerprint`: how strictly a model request is compared)."""
