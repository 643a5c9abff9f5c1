"""The densities a slider tries: each once, best first (a slider over its byte budget
once drew every frame twice at 1.5x)."""

from book.slider import SLIDER_DENSITY, _densities


def test_each_density_is_tried_once_best_first():
    for dpi in (None, 72, 120, 150, 200, 300):
        tried = _densities(dpi)
        assert tried == sorted(set(tried), reverse=True), (dpi, tried)
        assert tried[-1] == 1.0


def test_a_slider_starts_at_its_own_density_and_steps_down():
    assert _densities(None) == [SLIDER_DENSITY, 1.25, 1.0]
    assert _densities(200) == [2.0, 1.5, 1.25, 1.0]
