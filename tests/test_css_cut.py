"""The cut theme stylesheets (workshop/site/theme_css.py) style every element as the
full ones do.

Each scene opens a built page twice in headless Chromium: once as built, once with the
theme's full stylesheets served in place of the cut ones. It puts the page in a state a
reader sees (a table, a dropdown and the folded code opened, a tooltip, dark mode, the
search results, the menu on a phone, print), finishes every running transition, and reads
getComputedStyle of every element and of its ::before and ::after: every property that
the page's stylesheets (the full ones) or inline styles declare, so the comparison is
exact, with none of a screenshot's noise. (A property nothing declares cannot differ:
it follows from inheritance, its initial value and the other properties, the same in
both. Reading only the declared ones, 48-15 reads 2 fewer in 5 of Chromium's 479.)
A difference names the element, the property and both values.
"""

from __future__ import annotations

import gzip
from fnmatch import fnmatch

import pytest
from test_site import SITE

from workshop.site import theme_css

pytestmark = pytest.mark.skipif(
    not (SITE / "index.html").exists(), reason=f"no built site at {SITE}; run make test"
)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CHAPTER = "notebooks/part3/48-15-why-it-generalises.html"  # a slider, folds, a note

# What a scene does before styles are read (run in the page, in order).
ACTIONS = {
    # the download menu (a Bootstrap dropdown) and every fold: folded code, checks,
    # solutions
    "open menus": """async () => {
        document.querySelectorAll('details').forEach(d => d.open = true);
        // (Bootstrap loads on this first click: book.js holds it until it has)
        document.querySelector('.dropdown-download-buttons button').click();
        for (let i = 0; i < 100 && !document.querySelector('.dropdown-menu.show'); i++)
            await new Promise(r => setTimeout(r, 20));
        if (!document.querySelector('.dropdown-menu.show')) throw Error('no menu');
    }""",
    "dark": "async () => { document.documentElement.dataset.theme = 'dark'; }",
    # a header button's tooltip, as a pointer over it shows it
    "tooltip": """async () => {
        const b = document.querySelector('.theme-switch-button');
        b.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
        b.dispatchEvent(new FocusEvent('focusin', {bubbles: true}));
        // (the pointer's arrival loads Bootstrap first: book.js)
        for (let i = 0; i < 100 && !document.querySelector('.tooltip.show'); i++)
            await new Promise(r => setTimeout(r, 20));
        if (!document.querySelector('.tooltip.show')) throw Error('no tooltip');
    }""",
    "search results": """async () => {
        // until searchtools.js says it has finished (it fills the list bit by bit),
        // and each result's summary, fetched from its page, has come (no change in
        // three checks 300 ms apart: on a busy machine one quiet 300 ms was not enough)
        const done = () => (document.querySelector('.search-summary') || {}).innerText;
        const wait = ms => new Promise(r => setTimeout(r, ms));
        for (let i = 0; i < 250 && !done(); i++) await wait(20);
        let n = -1, quiet = 0;
        for (let i = 0; i < 40 && quiet < 3; i++) {
            const now = document.querySelectorAll('*').length;
            quiet = now === n ? quiet + 1 : 0;
            n = now;
            await wait(300);
        }
        if (!document.querySelector('#search-results li p.context')) throw Error('none');
    }""",
    # the phone's menu: the primary sidebar opens as a dialog
    "open sidebar": """async () => {
        // the button a reader sees (book.js hands its click to the one the theme binds)
        [...document.querySelectorAll('.primary-toggle')]
            .find(b => b.getClientRects().length).click();
        await new Promise(r => setTimeout(r, 50));
        if (!document.querySelector('dialog[open] .bd-docs-nav')) throw Error('no menu');
    }""",
}

SCENES = [
    ("errata.html", DESKTOP, []),
    ("glossary.html", DESKTOP, []),
    (CHAPTER, DESKTOP, ["open menus", "tooltip"]),
    (CHAPTER, DESKTOP, ["dark"]),
    ("search.html?q=attention", DESKTOP, ["search results"]),
    (CHAPTER, DESKTOP, ["open menus", "print"]),
    ("sources.html", PHONE, ["open sidebar"]),
    ("sources.html", PHONE, ["open sidebar", "dark"]),
]

# Every element's computed style, and its ::before and ::after where they draw
# (content other than none): a 32-bit FNV-1a digest each, and with `which`, the
# properties themselves of those elements. The properties read are `names`, or (none
# given) every one that a stylesheet or an inline style of the page declares; the
# declared ones are returned too.
STYLES = """async ([which, names]) => {
    await document.fonts.ready;
    for (const a of document.getAnimations()) {
        const end = a.effect && a.effect.getComputedTiming().endTime;
        if (Number.isFinite(end)) a.finish();
    }
    // Custom properties draw only through the properties that use them (and Chromium
    // lists them in no fixed order), so they are left out. A style rule lists its
    // declarations as longhands.
    const declared = new Set();
    const add = style => { for (let i = 0; i < style.length; i++)
        if (!style[i].startsWith('--')) declared.add(style[i]); };
    const walk = rules => { for (const r of rules) {
        if (r.style) add(r.style);
        if (r.styleSheet) walk(r.styleSheet.cssRules);  // @import
        if (r.cssRules) walk(r.cssRules);  // @media, @supports, @keyframes, nesting
    } };
    for (const sheet of document.styleSheets) walk(sheet.cssRules);
    const all = [...document.querySelectorAll('*')];
    for (const el of all) if (el.style) add(el.style);
    names = names || [...declared].sort();
    const text = (el, pseudo) => {
        const cs = getComputedStyle(el, pseudo);
        if (pseudo && (cs.content === 'none' || cs.content === 'normal')) return 'none';
        return names.map(n => n + ':' + cs.getPropertyValue(n)).join(';');
    };
    const digest = s => {
        let h = 2166136261;
        for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
        return h >>> 0;
    };
    // (Bootstrap numbers a tooltip's id at random)
    const name = el => el.tagName.toLowerCase()
        + (el.id ? '#' + el.id.replace(/\\d+/g, 'N') : '')
        + [...el.classList].map(c => '.' + c).join('');
    const rows = which ? which.map(i => [name(all[i]),
        ...['', '::before', '::after'].map(p => text(all[i], p || null))])
        : all.map(el => [name(el), digest(text(el, null)),
            digest(text(el, '::before')), digest(text(el, '::after'))]);
    return {names, declared: [...declared].sort(), rows};
}"""

SCROLL = "() => [window.scrollX, window.scrollY]"


def _full() -> dict[str, str]:
    """The full stylesheets, by their path under _static/, as the build kept them."""
    return theme_css.full_copies(SITE)


def _serve(text: str, served: list):
    """A route handler that answers with a stylesheet's `text` (and notes its URL)."""

    def handle(route):
        served.append(route.request.url)
        return route.fulfill(body=text, content_type="text/css")

    return handle


def _styles(
    browser, server, path, viewport, actions, sheets=None, which=None, names=None
):
    """The styles (STYLES: the properties `names`, else those the page declares) of a
    page in a scene, with `sheets` (path under _static/ to text) served in place of the
    built stylesheets; with none, as built."""
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    served, asked = [], []
    page.on(
        "request",
        lambda r: asked.append(r.url) if r.resource_type == "stylesheet" else None,
    )
    for name, text in (sheets or {}).items():
        page.route(f"**/_static/{name}*", _serve(text, served))
    page.goto(f"{server}/{path}", wait_until="load")
    if sheets:  # every cut sheet the page loads came from `sheets`
        cut = [u for u in asked if any(fnmatch(u, f"*/_static/{n}*") for n in sheets)]
        assert cut and sorted(cut) == sorted(served), (cut, served)
    for action in actions:
        if action == "print":  # the print stylesheets, as the PDF is printed
            page.emulate_media(media="print")
        else:
            page.evaluate(ACTIONS[action])
    styles = page.evaluate(STYLES, [which, names])
    context.close()
    return styles


def _compare(browser, server, scene, sheets=None) -> str:
    """What the built (or `sheets`) stylesheets style otherwise than the full ones in
    `scene`, in words; empty when nothing."""
    full = _styles(browser, server, *scene, sheets=_full())
    names = full["names"]
    cut = _styles(browser, server, *scene, sheets=sheets, names=names)
    # A property no stylesheet or inline style declares gets its value from the same
    # inheritance, initial value and other properties in both: it cannot differ. So
    # the properties the full stylesheets declare are all there is to compare, if the
    # cut ones declare none of their own.
    assert set(cut["declared"]) <= set(names), set(cut["declared"]) - set(names)
    full, cut = full["rows"], cut["rows"]
    assert [e[0] for e in full] == [e[0] for e in cut], "the two pages differ in DOM"
    which = [i for i, (a, b) in enumerate(zip(full, cut)) if a != b]
    if not which:
        return ""
    diff = _differences(
        _styles(browser, server, *scene, sheets=_full(), which=which[:20])["rows"],
        _styles(browser, server, *scene, sheets, which=which[:20], names=names)["rows"],
    )
    return (
        f"{len(which)} of {len(full)} elements styled otherwise by the cut CSS:\n"
        + "\n".join(diff[:40])
    )


def _differences(full: list, cut: list) -> list[str]:
    """What differs between two elements' styles (STYLES with `which`)."""
    out = []
    for (name, *a), (_, *b) in zip(full, cut):
        for part, x, y in zip(("", "::before", "::after"), a, b):
            px = dict(p.split(":", 1) for p in x.split(";") if ":" in p)
            py = dict(p.split(":", 1) for p in y.split(";") if ":" in p)
            for k in sorted(set(px) | set(py)):
                if px.get(k) != py.get(k):
                    out.append(f"{name}{part} {k}: {px.get(k)!r} -> {py.get(k)!r}")
    return out


@pytest.mark.parametrize(
    "path,viewport,actions",
    SCENES,
    ids=[
        f"{p.split('/')[-1]}-{v['width']}-{'+'.join(a) or 'as-is'}"
        for p, v, a in SCENES
    ],
)
def test_the_cut_css_styles_every_element_as_the_full_css(
    browser, server, path, viewport, actions
):
    found = _compare(browser, server, (path, viewport, actions))
    assert not found, found


def test_the_comparison_is_stable_a_against_a(browser, server):
    """One page read twice with the same stylesheets gives the same styles: no
    transition, font load or timer is caught half-way (the scene most prone to it: a
    dropdown and every fold opening, a tooltip fading in)."""
    scene = SCENES[2]
    first = _styles(browser, server, *scene, sheets=_full())
    again = _styles(browser, server, *scene, sheets=_full())
    assert first == again


def test_the_comparison_sees_a_cut_too_deep(browser, server):
    """A cut made as if no page held a table (PurgeCSS's trial broke the errata table)
    is caught on the errata page, and named."""
    present = theme_css.site_tokens(SITE) - {"table", ".table"}
    sheets = {n: theme_css.cut(t, present) for n, t in _full().items()}
    found = _compare(browser, server, SCENES[0], sheets)
    assert "elements styled otherwise by the cut CSS" in found, found


def test_the_cut_keeps_the_theme_within_its_budget():
    """The cut stylesheets weigh what the note says, as a static host sends them:
    pydata-sphinx-theme's 65.8 KB gzip, myst-nb's 6.0 KB are at most 20 KB and 2 KB."""
    sizes = {
        f.name: len(gzip.compress(f.read_bytes(), 6))
        for n in theme_css.THEME_CSS
        for f in (SITE / "_static").glob(n)
    }
    assert len(sizes) == len(theme_css.THEME_CSS), sizes
    assert sizes["pydata-sphinx-theme.css"] <= 20_000, sizes
    mystnb = [s for f, s in sizes.items() if f.startswith("mystnb.")]
    assert mystnb[0] <= 2_000, sizes


def test_a_selector_needs_only_the_names_it_must_match():
    """The cut's rule, on small cases: classes, ids and element names are required;
    attributes, pseudo-classes and functional pseudo-classes' arguments are not."""
    present = {"div", ".a", "#b", "span"}
    css = (
        ".a{x:1}.z{x:2}.a .z,.a>span{x:3}#b:hover::before{x:4}div:not(.z){x:5}"
        "[data-theme=dark] .a{x:6}table{x:7}@media (min-width:1px){.z{x:8}.a{x:9}}"
        "@media print{.z{x:10}}@font-face{font-family:f}li:nth-child(odd){x:11}"
        "div:nth-child(odd){x:12}/*! licence */"
    )
    assert theme_css.cut(css, present) == (
        ".a{x:1}.a>span{x:3}#b:hover::before{x:4}div:not(.z){x:5}"
        "[data-theme=dark] .a{x:6}@media (min-width:1px){.a{x:9}}"
        "@font-face{font-family:f}div:nth-child(odd){x:12}/*! licence */\n"
    )


def test_a_custom_property_stays_while_something_reads_it():
    """Custom properties go when nothing reads them: not a kept declaration, not a kept
    custom property that is read, not the pages, scripts or other stylesheets."""
    import tinycss2

    css = (
        ":root{--a:1px;--b:var(--a);--c:2px;--d:var(--c);--e:3px;--f:red}"
        ".x{margin:var(--b)}@media print{.y{--g:1px}}"
        "@keyframes k{to{width:var(--e)}}"
    )
    rules = theme_css.cut_rules(
        tinycss2.parse_stylesheet(css, skip_whitespace=True), {".x", ".y"}
    )
    theme_css.drop_unused_variables([rules], {"--f"})
    assert theme_css._text(rules) == (
        ":root{--a:1px;--b:var(--a);--e:3px;--f:red}.x{margin:var(--b)}"
        "@keyframes k{to{width:var(--e)}}"
    )
