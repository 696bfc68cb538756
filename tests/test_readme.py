"""The README's example runs, and gives sacreBLEU's numbers."""
import re
from pathlib import Path

import pytest
import sacrebleu

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_runs_and_matches_sacrebleu(capsys):
    if not README.exists():
        pytest.skip(f"{README} is absent (tests run without the source tree)")
    code = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[1]
    namespace = {}
    exec(compile(code, str(README), "exec"), namespace)
    lines = capsys.readouterr().out.splitlines()
    hyps, refs = namespace["hyps"], namespace["refs"]
    assert lines[0] == str(sacrebleu.corpus_bleu(hyps, refs))
    assert lines[1] == str(sacrebleu.sentence_bleu(hyps[0], [refs[0][0]]).score)
