"""One name for each special token and for the word-start mark, on every page: what a class reads never
says <bos>/<eos> beside <s>/</s>, nor '▁나는' in a table beside '·나는' in a chart (pages/ui/theme.py)."""
import pytest

from apppages import chart_specs, open_app

PAGES = ["translate", "diagram", "decoding", "attention_lab", "shapes", "positional", "masks", "training", "bleu",
         "models"]
WRONG = ("<bos>", "<eos>", "&lt;bos&gt;", "&lt;eos&gt;", "\u2581")       # ▁: SentencePiece's raw word-start mark


def shown_text(at) -> str:
    """Every text the page shows: Markdown, captions, alerts, tables (cells, index, columns) and charts."""
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "success", "error", "title", "header",
                                 "subheader") for e in getattr(at, kind)]
    for frame in [*at.dataframe, *at.table]:
        value = frame.value
        parts += [str(value.to_dict()), " ".join(map(str, value.index)), " ".join(map(str, value.columns))]
    parts += list(chart_specs(at).values())
    return "\n".join(parts).replace("\\u2581", "\u2581")                  # a chart's JSON escapes ▁


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_names_tokens_one_way(page, lang):
    at = open_app(lang, None if page == "translate" else f"pages/{page}.py")
    assert not at.exception
    text = shown_text(at)
    for wrong in WRONG:
        assert wrong not in text, (page, wrong, text[max(0, text.find(wrong) - 80):text.find(wrong) + 80])
