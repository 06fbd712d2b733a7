"""Each translation's least certain tokens (transformer_core/explainer/confidence.py) on the bundled models:
the probabilities are exp(log P) of a teacher-forced pass over the output shown, the ones decoding gave
(greedy's trace, beam search's score), and the tokens marked are exactly those under THRESHOLD."""
from pathlib import Path

import numpy as np
import pytest
import torch

from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer import confidence
from transformer_core.explainer.translate import translate
from transformer_core.model.decoding import length_penalty
from transformer_core.serving import runs

pytestmark = pytest.mark.usefixtures("one_thread")

ROOT = Path(__file__).resolve().parents[1]
# sentences of tests/data/everyday.tsv (never trained on), with words the models get wrong
SENTENCES = {"enko": ["We will go on a school trip next week.", "I have a math test on Friday.", "I like apples."],
             "ende": ["I have a math test on Friday.", "We are reading a story about a brave girl.", "I like apples."]}


@pytest.fixture(scope="module", params=sorted(SENTENCES))
def ckpt(request):
    return load_checkpoint(ROOT / "checkpoints" / request.param)


def teacher_forced_log_probs(ckpt, src_ids, out_ids) -> torch.Tensor:
    """log P of each output token and EOS from one plain forward on (src, [BOS] + output), PAD and BOS
    never produced: (T + 1,)."""
    cfg = ckpt.config
    with torch.no_grad():
        logits = ckpt.model(torch.tensor([src_ids]), torch.tensor([[cfg.bos_id, *out_ids]]))[0].double()  # (T + 1, V)
    logits[:, [cfg.pad_id, cfg.bos_id]] = float("-inf")
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(1, torch.tensor([*out_ids, cfg.eos_id]).view(-1, 1))[:, 0]


@pytest.mark.parametrize("beam", [4, 1])
def test_probabilities_are_those_of_a_teacher_forced_pass_and_the_marked_tokens_those_under_the_threshold(ckpt, beam):
    flagged_any = False
    for text in SENTENCES[ckpt.name]:
        res = runs.translation(ckpt, text, beam, ())
        logp = teacher_forced_log_probs(ckpt, res["src_ids"], res["out_ids"])          # (T + 1,)
        probs = np.array(res["probs"])
        assert probs.shape == (len(res["out_ids"]),)
        np.testing.assert_allclose(probs, logp[:-1].exp().numpy(), rtol=1e-5, atol=1e-6)
        flagged = confidence.uncertain(probs)
        assert flagged == [i for i, p in enumerate(probs) if p < confidence.THRESHOLD]
        assert all(probs[i] >= confidence.THRESHOLD for i in set(range(len(probs))) - set(flagged))
        flagged_any |= bool(flagged)
        assert "".join(res["token_texts"]) == res["text"]
        # the decoding that chose this output scored it with the same numbers
        decoded = translate(ckpt, text, beam=beam, trace=beam == 1).decoded
        assert decoded.ids == res["out_ids"]
        if beam == 1:
            chosen = [step.topk_probs[0][0] for step in decoded.steps[:len(probs)]]   # greedy: the top token
            np.testing.assert_allclose(probs, chosen, rtol=1e-5)
        else:
            lp = length_penalty(len(res["out_ids"]) + 1, ckpt.beam_options["alpha"], ckpt.beam_options["penalty"])
            assert float(logp.sum()) / lp == pytest.approx(decoded.score, abs=1e-4)
    assert flagged_any, "the model is sure of every token of these sentences: choose others"


def test_the_lecture_sentence_is_translated_without_a_mark(ckpt):
    res = runs.translation(ckpt, "I like apples.", 4, ())
    assert confidence.uncertain(res["probs"]) == [] and min(res["probs"]) >= confidence.THRESHOLD


def test_the_threshold_command_prints_its_tables(tmp_path, capsys):
    tsv = tmp_path / "two.tsv"
    tsv.write_text("en\tko\nI like apples.\t나는 사과를 좋아한다.\nThe teacher wrote three words on the board.\t"
                   "선생님이 칠판에 단어 세 개를 쓰셨다.\n", encoding="utf-8")
    assert confidence.main(["--checkpoint", str(ROOT / "checkpoints" / "enko"), "--tsv", str(tsv), "--column", "ko"]) == 0
    out = capsys.readouterr().out
    assert "| 0.5 |" in out and "not in the reference" in out
    assert confidence.main(["--checkpoint", str(ROOT / "checkpoints" / "enko"), "--tsv", str(tsv), "--column", "de"]) == 2


def test_uncertain_and_in_reference():
    assert confidence.uncertain([0.2, 0.5, 0.9, 0.49], 0.5) == [0, 3]
    assert confidence.in_reference([5, 6, 5, 7], [5, 7, 8]) == [True, False, False, True]   # each matched once


def test_the_numbers_command_counts_the_numbers_each_translation_keeps(tmp_path, capsys):
    from transformer_core.__main__ import main

    sentences = tmp_path / "numbers.txt"
    sentences.write_text("It costs 3500 won.\nMy brother is 12 years old.\n", encoding="utf-8")
    root = Path(__file__).resolve().parents[1]
    assert main(["confidence", "--checkpoint", str(root / "checkpoints" / "enko"), "--numbers", str(sentences)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("It costs 3500 won.\t") and out[0].endswith("\tlacks 3500\tadds 350")
    assert out[1].endswith("\tlacks -\tadds -")
    assert out[-1] == "numbers kept exactly: 1/2; a number lacking: 1/2; a number not in the sentence: 1/2"
