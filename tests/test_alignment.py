"""Alignment error rate of attention heads against gold word alignments."""
import numpy as np
import pytest

from transformer_core.checkpoints.files import CARD
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer.alignment import Counts, fmt, links_of, parse, score_heads, word_cross_attention


def test_aer_by_hand():
    gold = parse("0-0 1-2 2-1")
    assert fmt(gold) == "0-0 1-2 2-1"
    c = Counts()
    c.add(parse("0-0 1-2 2-1"), gold)
    assert c.aer == 0.0
    c = Counts()
    c.add(parse("0-0 1-1 2-1"), gold)          # 2 of 3 right: 1 - 2*2/(3+3)
    assert c.aer == pytest.approx(1 - 4 / 6)
    c.add(set(), parse("0-0"))                  # a sentence with no prediction adds to |S| only
    assert c.aer == pytest.approx(1 - 4 / 7)


def test_links_take_the_most_attended_source_word():
    attention = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])     # (W_tgt, W_src)
    assert links_of(attention) == {(0, 0), (2, 1)}


def test_heads_are_scored_on_word_level_cross_attention(toy_checkpoints):
    ckpt = load_checkpoint(toy_checkpoints / "toy-en")
    src, tgt = ckpt.examples[0]["src"], ckpt.examples[0]["ref"]
    attn = word_cross_attention(ckpt.model, ckpt.tokenizer, src, tgt)
    L, H = ckpt.config.n_decoder_layers, ckpt.config.n_heads
    assert attn.shape == (L, H, len(tgt.split()), len(src.split()))
    assert np.allclose(attn.sum(-1), 1.0, atol=0.35) and (attn.sum(-1) <= 1.0 + 1e-5).all()   # <s>, </s> left out
    diagonal = {(i, i) for i in range(len(src.split()))}
    result = score_heads(ckpt.model, ckpt.tokenizer, [(src, tgt, diagonal)] * 2)
    assert np.array(result["heads"]).shape == (L, H) and result["sentences"] == 2
    expected = Counts()
    for _ in range(2):
        expected.add(links_of(attn[0, 0]), diagonal)
    assert result["heads"][0][0] == pytest.approx(round(expected.aer, 4))
    assert result["heads"][result["best"][0]][result["best"][1]] == min(min(r) for r in result["heads"])


def test_scores_are_recorded_in_training_json_and_the_card(tmp_path, toy_pairs, toy_spm):
    """evaluate --tsv --record and alignment --record write their numbers and commands into the card."""
    import json
    import shutil

    from transformer_core.explainer import alignment
    from transformer_core.training import evaluate, train

    data = tmp_path / "data"
    data.mkdir()
    for split, part in (("train", toy_pairs[:80]), ("valid", toy_pairs[80:90]), ("test", toy_pairs[90:])):
        (data / f"{split}.en").write_text("".join(s + "\n" for s, _ in part), encoding="utf-8")
        (data / f"{split}.de").write_text("".join(t + "\n" for _, t in part), encoding="utf-8")
        (data / f"{split}.align").write_text("".join(" ".join(f"{i}-{i}" for i in range(len(s.split()))) + "\n"
                                                     for s, _ in part), encoding="utf-8")
    shutil.copyfile(toy_spm, data / "spm.model")
    (data / "manifest.json").write_text(json.dumps({"source": {"name": "toy"}, "src_lang": "en", "tgt_lang": "de"}),
                                        encoding="utf-8")
    out = tmp_path / "run"
    assert train.main(["--data", str(data), "--out", str(out), "--d-model", "16", "--heads", "2", "--encoder-layers",
                       "1", "--decoder-layers", "1", "--d-ff", "32", "--steps", "2", "--max-tokens", "300",
                       "--bleu-sentences", "2", "--test-beam", "1", "--device", "cpu"]) == 0
    ckpt = out / "checkpoint"
    tsv = tmp_path / "classroom.tsv"
    tsv.write_text("en\tko\tde\n" + "".join(f"{s}\t-\t{t}\n" for s, t in toy_pairs[:5]), encoding="utf-8")
    assert evaluate.main(["--checkpoint", str(ckpt), "--tsv", str(tsv), "--beam", "1", "--record", "classroom"]) == 0
    assert alignment.main(["--checkpoint", str(ckpt), "--data", str(data), "--limit", "5", "--record", "--gold", "3"]) == 0
    from transformer_core.checkpoints.load import load_checkpoint
    gold = load_checkpoint(ckpt).gold
    assert len(gold) == 3 and all(links == " ".join(f"{i}-{i}" for i in range(len(src.split())))
                                  for src, (_, links) in gold.items())
    assert list(gold)[0] == "I like apples." and gold["I like apples."][0] == "Ich mag Äpfel."   # the lecture's first
    training = json.loads((ckpt / "training.json").read_text(encoding="utf-8"))
    (classroom,) = training["evaluations"]
    assert classroom["name"] == "classroom" and classroom["n"] == 5 and "--tsv" in classroom["command"]
    assert training["alignment"]["sentences"] == 5 and len(training["alignment"]["heads"]) == 1
    card = (ckpt / CARD).read_text(encoding="utf-8")
    assert "## More evaluations" in card and f"{classroom['chrf']:.2f}" in card and "## Attention against gold" in card
    assert evaluate.main(["--checkpoint", str(ckpt), "--tsv", str(tsv), "--beam", "1", "--record", "classroom"]) == 0
    assert len(json.loads((ckpt / "training.json").read_text(encoding="utf-8"))["evaluations"]) == 1   # replaced
    lines = [s for s, _ in toy_pairs[:7]]
    one = load_checkpoint(ckpt)
    assert evaluate.translate_all(one, lines, beam=2, workers=2) == evaluate.translate_all(one, lines, beam=2)  # 4 + 3
    from transformer_core.training import mixes
    assert mixes.main(["--run", f"toy=={ckpt}", "--run", f"toy again={ckpt}", "--set", f"toy={data}",
                       "--tsv", f"classroom={tsv}", "--beam", "1", "--record", str(ckpt)]) == 0
    m = json.loads((ckpt / "training.json").read_text(encoding="utf-8"))["mixes"]
    assert [r["name"] for r in m["runs"]] == ["toy=", "toy again"] and m["valid_sets"] == ["toy"]
    first, again = (r["scores"] for r in m["runs"])
    assert all(again[name].pop("chrf_p") > 0.5 for name in ("toy", "classroom"))   # the same translations
    assert first == again and first["toy"]["n"] == 10 and first["classroom"]["n"] == 5
    assert first["classroom"]["chrf"] == classroom["chrf"]                  # the same sentences, the same score
    card = (ckpt / CARD).read_text(encoding="utf-8")
    assert "## Training mixes compared" in card and f"{first['toy']['bleu']:.2f} / {first['toy']['chrf']:.2f}" in card
    assert f"{first['toy']['bleu']:.2f} / {first['toy']['chrf']:.2f} (p = " in card             # the second run's
