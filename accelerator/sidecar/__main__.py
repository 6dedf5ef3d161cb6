from accelerator.sidecar.server import main

raise SystemExit(main())
