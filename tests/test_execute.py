"""workshop.run.execute: a re-executed figure whose pixels did not change keeps its
stored bytes, so git stores it once; a changed figure is stored anew."""

import base64
import io

from PIL import Image

from workshop.run.execute import keep_unchanged_images


def _png(colour, level: int) -> str:
    buf = io.BytesIO()
    img = Image.new("RGB", (8, 4), colour)
    img.info["note"] = str(level)
    img.save(buf, format="PNG", compress_level=level)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _cell(b64: str, cid: str = "c1") -> dict:
    html = f'<figure><img src="data:image/png;base64,{b64}" alt="x"></figure>'
    return {
        "id": cid,
        "cell_type": "code",
        "outputs": [{"output_type": "display_data", "data": {"text/html": html}}],
    }


def test_the_same_pixels_keep_the_stored_bytes():
    stored, again = _png("red", 9), _png("red", 1)
    assert stored != again  # the same pixels, encoded differently
    new = [_cell(again)]
    assert keep_unchanged_images([_cell(stored)], new) == 1
    assert stored in new[0]["outputs"][0]["data"]["text/html"]


def test_changed_pixels_are_stored_anew():
    stored, changed = _png("red", 9), _png("blue", 9)
    new = [_cell(changed)]
    assert keep_unchanged_images([_cell(stored)], new) == 0
    assert changed in new[0]["outputs"][0]["data"]["text/html"]


def test_an_image_output_and_another_cell_are_matched_by_place():
    stored, again = _png("red", 9), _png("red", 1)
    old = [{"id": "a", "outputs": [{"data": {"image/png": stored}}]}]
    new = [{"id": "a", "outputs": [{"data": {"image/png": again}}]}]
    other = [{"id": "b", "outputs": [{"data": {"image/png": again}}]}]
    assert keep_unchanged_images(old, other) == 0
    assert keep_unchanged_images(old, new) == 1
    assert new[0]["outputs"][0]["data"]["image/png"] == stored


def test_printed_text_is_one_output_per_stream():
    from workshop.run.execute import merge_streams

    def out(name, text):
        return {"output_type": "stream", "name": name, "text": text}

    cells = [
        {
            "outputs": [
                out("stdout", "a\n"),
                out("stdout", "b\n"),
                out("stderr", "w\n"),
                {"output_type": "display_data", "data": {}},
                out("stdout", "c\n"),
            ]
        }
    ]
    merge_streams(cells)
    assert [o.get("text") for o in cells[0]["outputs"]] == [
        "a\nb\n",
        "w\n",
        None,
        "c\n",
    ]
