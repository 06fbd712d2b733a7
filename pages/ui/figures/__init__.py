"""All plotly figure builders.  Plain functions: data in (numpy / torch / lists, plus the already
translated labels), a plotly Figure out.  No Streamlit here, so every builder is testable alone.

Conventions
- Token labels go on numeric axes (0, 1, …) with the tokens as tick text, so repeated tokens stay
  apart, and they are escaped: plotly treats "<pad>" as markup otherwise.  theme.token_label names
  them: one name per special token, "▁" drawn as the word-start mark.
- Colours come from theme.py: SEQUENTIAL for weights and probabilities, DIVERGING (centred at 0) for
  signed values.
- −∞ (masked scores) is drawn as a blank cell with the text given in masked_text (e.g. "−∞").
- Every title and axis title is passed in by the caller (from the i18n files).
"""
from .architecture import architecture_svg, residual_figure, top_next_figure
from .attention import (
                        ALIGN_BINS,
                        GRID_GAP,
                        GRID_TICK_LIMIT,
                        alignment_figure,
                        attention_grid,
                        attention_heatmap,
                        cost_figure,
                        grid_panel,
                        grid_window,
                        matrix_panels,
                        position_stats_figure,
)
from .base import as_array, bar_figure, escape, heatmap, histogram_figure, line_figure, mask_trace, tick_labels
from .decoding import probability_text, topk_figure
from .masks import batch_mask_heatmap, leak_figure, mask_heatmap, scores_heatmap, step_heatmap
from .positional import encoding_figure, pe_heatmap, pe_waves, rotation_figure, similarity_heatmap
from .training import confidence_loss_figure, history_figure, log_figure, lr_figure, smoothing_figure
