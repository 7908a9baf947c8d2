"""What many tests share: worlds that run programs in a guest (`guest_world`, `guest_attempts`,
`shared_arms`), a scripted host (`scripted_host`), the attack corpus as fixtures (`attack_fixture`),
a manual clock (`manual_clock`), mounts (`mounts`) and the wall-clock bounds a test may wait
(`wall_bounds`). Imported as `from support.<module> import ...`."""
