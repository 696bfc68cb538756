"""`python -m cybleu.dataset --dump`: sacreBLEU's markdown table of the test sets.

`--check` (sacreBLEU downloads every archive to check its MD5 sum) is not available: cybleu never
downloads."""
import re
import sys

from . import DATASETS


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    cmd = argv[0] if argv else None
    if cmd == "--dump":
        print(f'| {"Dataset":<30} | {"Description":<115} |')
        print("| " + "-" * 30 + " | " + "-" * 115 + " |")
        for name, item in DATASETS.items():
            desc = re.sub(r"(http[s]?:\/\/\S+)", r"[URL](\1)", str(item.description))
            print(f"| {name:<30} | {desc:<115} |")
        return 0
    if cmd == "--check":
        print("--check downloads every test set to check its MD5 sum; cybleu never downloads "
              "(run `python -m sacrebleu.dataset --check`).", file=sys.stderr)
        return 1
    print("Usage: python -m cybleu.dataset --check | --dump", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
