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


def test_readme_token_id_example_runs_and_matches_sacrebleu(capsys):
    if not README.exists():
        pytest.skip(f"{README} is absent (tests run without the source tree)")
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Token IDs for training loops"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)[1]
    namespace = {}
    exec(compile(code, str(README), "exec"), namespace)
    capsys.readouterr()
    bleu = sacrebleu.metrics.BLEU(tokenize="none", effective_order=True)
    trimmed = [["5", "17", "9", "42"], ["5", "17", "8"]]
    refs = [" ".join(map(str, r)) for r in namespace["refs"]]
    assert namespace["rewards"].tolist() == [bleu.sentence_score(" ".join(h), [r]).score
                                             for h, r in zip(trimmed, refs)]
    assert str(namespace["score"]) == str(sacrebleu.corpus_bleu([" ".join(h) for h in trimmed],
                                                                [refs], tokenize="none"))
    assert namespace["matrix"][0, 1] == bleu.sentence_score(refs[0], [refs[1]]).score
