"""`python -m cybleu`: the command line (see cybleu.cli)."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
