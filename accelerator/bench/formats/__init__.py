"""`accelerator bench-formats`: decode and encode throughput, per core, of the accelerator's
Python format path vs Flink's own Java (de)serializers on the same Nexmark bid messages.

`inputs` makes the rows and seed messages, `flink_side` runs Flink's formats in their own JVM,
`codecs` is how the sidecar calls our formats, `byte_check` proves both sides agree before any
timing, `accelerator_side` times our codecs in their own process, `summary` turns the rounds into
the ratio table and `runner` does it all in order.
"""
