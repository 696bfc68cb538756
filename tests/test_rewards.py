"""cybleu.rewards: GRPO reward functions with TRL's signature, equal to sacreBLEU's sentence BLEU,
and called by TRL's own GRPOTrainer when TRL is installed."""
import struct
import warnings

import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cybleu.rewards import bleu_reward, make_bleu_reward

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LINE = st.lists(st.sampled_from(["a", "b", "c", "the", "cat", ".", ",", "3.5"]),
                max_size=8).map(" ".join)


def bits(values):
    return [None if v is None else struct.pack("<d", v) for v in values]


def trl_kwargs(**columns):
    """The keyword arguments GRPOTrainer adds besides the dataset columns."""
    return dict(prompts=["p"] * len(next(iter(columns.values()))), trainer_state=None,
                log_extra=lambda *a, **k: None, log_metric=lambda *a, **k: None, **columns)


@SETTINGS
@given(rows=st.lists(st.tuples(LINE, st.none() | LINE | st.lists(LINE, min_size=1, max_size=3)),
                     min_size=1, max_size=6))
def test_text_reward_equals_sacrebleu_sentence_bleu(rows):
    completions = [c for c, _ in rows]
    references = [r for _, r in rows]
    got = bleu_reward(completions=completions, completion_ids=[[1]] * len(rows),
                      **trl_kwargs(reference=references))
    want = [None if r is None else
            sacrebleu.sentence_bleu(c, [r] if isinstance(r, str) else r).score for c, r in rows]
    assert bits(got) == bits(want)
    # conversational completions: the last message's content
    chats = [[{"role": "assistant", "content": c}] for c in completions]
    assert bits(bleu_reward(completions=chats, **trl_kwargs(reference=references))) == bits(want)


def test_made_reward_options():
    reward = make_bleu_reward("solution", tokenize="char", scale=0.01, smooth_method="floor")
    assert reward.__name__ == "bleu_solution"
    got = reward(completions=["abc d", "xyz"], **trl_kwargs(solution=["abd", "xy z"]))
    want = [sacrebleu.sentence_bleu(c, [r], tokenize="char", smooth_method="floor").score * 0.01
            for c, r in (("abc d", "abd"), ("xyz", "xy z"))]
    assert bits(got) == bits(want)
    assert make_bleu_reward(name="my_bleu").__name__ == "my_bleu"


def test_ids_reward_equals_sacrebleu_on_joined_ids():
    reward = make_bleu_reward("reference_ids", ids=True, pad_id=0, eos_id=2)
    completion_ids = [[5, 17, 9, 42, 2], [5, 17, 8, 2, 0], [7, 7, 7]]
    references = [[5, 17, 9, 42], [[5, 17, 9], [5, 17, 8, 4]], None]
    got = reward(completions=["ignored"] * 3, completion_ids=completion_ids,
                 **trl_kwargs(reference_ids=references))
    want = [sacrebleu.sentence_bleu("5 17 9 42", ["5 17 9 42"], tokenize="none").score,
            sacrebleu.sentence_bleu("5 17 8", ["5 17 9", "5 17 8 4"], tokenize="none").score,
            None]
    assert bits(got) == bits(want)


def test_reward_errors():
    with pytest.raises(TypeError, match="no 'reference' column was passed"):
        bleu_reward(completions=["a"], **trl_kwargs(solution=["a"]))
    with pytest.raises(ValueError, match=r"'reference' must hold one entry per completion \(2\)"):
        bleu_reward(completions=["a", "b"], **trl_kwargs(reference=["a"]))
    with pytest.raises(TypeError, match=r"completions\[0\] is neither a string"):
        bleu_reward(completions=[3], **trl_kwargs(reference=["a"]))
    with pytest.raises(TypeError, match=r"reference\[0\] must be a string or a list"):
        bleu_reward(completions=["a"], **trl_kwargs(reference=[[1, 2]]))
    with pytest.raises(ValueError, match="scale must be finite"):
        make_bleu_reward(scale=float("nan"))


def test_called_by_trls_grpo_trainer(tmp_path):
    """TRL's GRPOTrainer computes rewards through its own call (`_calculate_rewards`, the method
    that passes prompts, completions, completion_ids and every dataset column)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trl = pytest.importorskip("trl", reason="TRL is not installed (pip install trl)")
        transformers = pytest.importorskip("transformers", reason="transformers is not installed")
        tokenizers = pytest.importorskip("tokenizers", reason="tokenizers is not installed")
        datasets = pytest.importorskip("datasets", reason="datasets is not installed")
    import torch
    vocab = ["<pad>", "</s>", "<unk>", "the", "cat", "sat", "on", "mat", "a", "dog"]
    word_level = tokenizers.Tokenizer(tokenizers.models.WordLevel(
        {w: i for i, w in enumerate(vocab)}, unk_token="<unk>"))
    word_level.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=word_level, pad_token="<pad>", eos_token="</s>", unk_token="<unk>")
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel(transformers.GPT2Config(
        vocab_size=len(vocab), n_positions=32, n_embd=16, n_layer=1, n_head=2,
        pad_token_id=0, eos_token_id=1, bos_token_id=1))
    dataset = datasets.Dataset.from_list([{"prompt": "the cat", "reference": "the cat sat"},
                                          {"prompt": "a dog", "reference": "a dog sat on a mat"}])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        config = trl.GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=2,
                                num_generations=2, max_completion_length=4, report_to=[],
                                use_cpu=True)
        trainer = trl.GRPOTrainer(model=model, reward_funcs=[bleu_reward], args=config,
                                  train_dataset=dataset, processing_class=tokenizer)
        inputs = [dict(row) for row in dataset]
        completions = ["the cat sat on", "dog"]
        rewards = trainer._calculate_rewards(inputs, [r["prompt"] for r in inputs], completions,
                                             [[3, 4, 5, 6], [9]])
    want = [sacrebleu.sentence_bleu(c, [r["reference"]]).score for c, r in zip(completions, inputs)]
    # TRL keeps rewards as float32
    assert rewards[:, 0].tolist() == torch.tensor(want, dtype=torch.float32).tolist()
