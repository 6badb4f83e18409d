import sys

from tei.cli import main

sys.exit(main())
