from accelerator.cli import main

raise SystemExit(main())
