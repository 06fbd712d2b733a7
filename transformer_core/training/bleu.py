"""BLEU, taken apart: n-gram matches, clipping, precisions, brevity penalty, score.

Tokenization and n-gram extraction are sacrebleu's own (tokenizer '13a' by default), and the
score follows sacrebleu's BLEU.compute_bleu step by step, so every number here equals
sacrebleu.sentence_bleu / corpus_bleu with the same settings.

    p_n  = Σ_ngram min(count_hyp, max_ref count_ref) / Σ_ngram count_hyp      (clipped precision)
    BP   = 1 if c > r else exp(1 − r / c)            (c = hypothesis length, r = closest reference length)
    BLEU = BP · exp( Σ_{n=1..N} (1/N) log p_n )      (N = 4)

The lecture writes the penalty as min(1, c / r) — a simplification; lecture_score() computes that
variant for comparison.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.helpers import extract_all_word_ngrams

MAX_ORDER = 4
SMOOTH_METHODS = ("exp", "none", "floor", "add-k")
TOKENIZERS = ("13a", "ko-mecab", "char", "intl", "none")


@dataclass
class NgramRow:
    """One distinct n-gram of the hypothesis."""
    ngram: tuple[str, ...]
    n: int
    hyp_count: int        # times it occurs in the hypothesis
    ref_count: int        # most times it occurs in any one reference
    matched: int          # min(hyp_count, ref_count): the clipped count
    segment: int = 0

    @property
    def clipped(self) -> int:
        """How many occurrences clipping removed (only for n-grams the reference does have)."""
        return self.hyp_count - self.matched if self.ref_count > 0 else 0

    @property
    def text(self) -> str:
        return " ".join(self.ngram)


@dataclass
class BleuBreakdown:
    hyp_tokens: list[list[str]]           # per segment
    ref_tokens: list[list[list[str]]]     # per segment, per reference
    sys_len: int                          # c
    ref_len: int                          # r (closest reference length, summed over segments)
    counts: list[int]                     # matched (clipped) n-grams, n = 1..4
    totals: list[int]                     # hypothesis n-grams, n = 1..4
    raw_precisions: list[float]           # 100 · counts / totals (0 where totals = 0)
    precisions: list[float]               # what the score uses, after smoothing (percent)
    bp: float
    score: float                          # 0..100
    eff_order: int                        # number of orders in the geometric mean
    smooth_method: str
    smooth_value: float | None
    ngrams: list[NgramRow] = field(default_factory=list)

    @property
    def clipped(self) -> list[NgramRow]:
        return [row for row in self.ngrams if row.clipped > 0]


@cache
def metric(tokenize: str = "13a", lowercase: bool = False, smooth_method: str = "exp",
           effective_order: bool = False) -> BLEU:
    """One sacrebleu BLEU per setting, for the life of the process.  sacrebleu's tokenizers memoise
    __call__ with functools.lru_cache, whose cache keeps every tokenizer ever made alive: a BLEU made per
    call would leave a MeCab tagger behind each time, with its own mapping of the 100 MB Korean
    dictionary (a class of 40 on the BLEU page: +190 MB of server RSS in 5 minutes).  The MeCab binding
    holds the GIL while it parses, so threads can share one."""
    return BLEU(tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method,
                effective_order=effective_order)


def _preprocess(bleu: BLEU, text: str) -> str:
    text = text.lower() if bleu.lowercase else text
    return bleu.tokenizer(text.rstrip())


def _closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to the hypothesis length; ties go to the shorter one."""
    return min(ref_lens, key=lambda r: (abs(hyp_len - r), r))


def compute(counts: Sequence[float], totals: Sequence[float], sys_len: int, ref_len: int,
            smooth_method: str = "exp", smooth_value: float | None = None,
            effective_order: bool = True, max_order: int = MAX_ORDER) -> tuple[float, float, list[float], int]:
    """Score from the sufficient statistics.  -> (score, bp, precisions used, eff_order)"""
    if smooth_method not in SMOOTH_METHODS:
        raise ValueError(f"unknown smoothing method {smooth_method!r}")
    if smooth_value is None:
        smooth_value = BLEU.SMOOTH_DEFAULTS[smooth_method]
    correct, total = list(counts), list(totals)
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * max_order
    if not any(correct):
        return 0.0, bp, precisions, max_order
    halvings, eff_order = 1.0, max_order
    for n in range(1, max_order + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += smooth_value
            total[n - 1] += smooth_value
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":            # 1 / (2^k · total) for the k-th order without a match
                halvings *= 2
                precisions[n - 1] = 100.0 / (halvings * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    log_sum = sum(math.log(p) if p > 0 else -9999999999 for p in precisions[:eff_order])
    return bp * math.exp(log_sum / eff_order), bp, precisions, eff_order


def corpus_breakdown(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                     smooth_method: str = "exp", smooth_value: float | None = None,
                     effective_order: bool = False, tokenize: str = "13a",
                     lowercase: bool = False) -> BleuBreakdown:
    """BLEU of a corpus.  references: reference streams, each as long as hypotheses (sacrebleu's layout)."""
    bleu = metric(tokenize, lowercase)
    if any(len(stream) != len(hypotheses) for stream in references) or not references:
        raise ValueError("each reference stream must have one line per hypothesis")
    counts, totals = [0] * MAX_ORDER, [0] * MAX_ORDER
    sys_len = ref_len = 0
    hyp_tokens, ref_tokens, rows = [], [], []
    for seg, hyp in enumerate(hypotheses):
        refs = [_preprocess(bleu, stream[seg]) for stream in references]
        ref_ngrams: Counter = Counter()
        ref_lens = []
        for ref in refs:
            ngrams, length = extract_all_word_ngrams(ref, 1, MAX_ORDER)
            ref_lens.append(length)
            for gram, count in ngrams.items():
                ref_ngrams[gram] = max(ref_ngrams[gram], count)
        hyp_text = _preprocess(bleu, hyp)
        hyp_ngrams, hyp_len = extract_all_word_ngrams(hyp_text, 1, MAX_ORDER)
        sys_len += hyp_len
        ref_len += _closest_ref_len(hyp_len, ref_lens)
        for gram, count in hyp_ngrams.items():
            n = len(gram)
            matched = min(count, ref_ngrams.get(gram, 0))
            totals[n - 1] += count
            counts[n - 1] += matched
            rows.append(NgramRow(gram, n, count, ref_ngrams.get(gram, 0), matched, seg))
        hyp_tokens.append(hyp_text.split())
        ref_tokens.append([ref.split() for ref in refs])
    score, bp, precisions, eff_order = compute(counts, totals, sys_len, ref_len, smooth_method,
                                               smooth_value, effective_order)
    raw = [100.0 * c / t if t else 0.0 for c, t in zip(counts, totals, strict=False)]
    rows.sort(key=lambda r: (r.segment, r.n, -r.hyp_count, r.ngram))
    return BleuBreakdown(hyp_tokens, ref_tokens, sys_len, ref_len, counts, totals, raw, precisions,
                         bp, score, eff_order, smooth_method,
                         BLEU.SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value, rows)


def sentence_breakdown(hypothesis: str, references: Sequence[str], smooth_method: str = "exp",
                       smooth_value: float | None = None, effective_order: bool = True,
                       tokenize: str = "13a", lowercase: bool = False) -> BleuBreakdown:
    """BLEU of one hypothesis against one or more references (defaults as sacrebleu.sentence_bleu)."""
    if not references:
        raise ValueError("at least one reference is needed")
    return corpus_breakdown([hypothesis], [[ref] for ref in references], smooth_method, smooth_value,
                            effective_order, tokenize, lowercase)


def lecture_score(b: BleuBreakdown) -> float:
    """The lecture's formula: min(1, c / r) · (Π_{n=1..4} p_n)^(1/4), unsmoothed, in percent."""
    if b.ref_len == 0 or any(p == 0 for p in b.raw_precisions):
        return 0.0
    geo = math.exp(sum(math.log(p / 100.0) for p in b.raw_precisions) / MAX_ORDER)
    return 100.0 * min(1.0, b.sys_len / b.ref_len) * geo
