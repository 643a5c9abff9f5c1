// TeX to SVG at build time, with MathJax 3 (node_modules/mathjax), for workshop/site/math.py.
// One JSON request a line on stdin ({"tex": "...", "display": true}); one JSON reply a line
// on stdout ({"html": "<mjx-container ...>"} or {"error": "..."}). The first line written
// is {"css": "..."}: the stylesheet the SVG output needs.
const path = require("path");
const readline = require("readline");
const root = process.argv[2];
require(path.join(root, "node_modules", "mathjax"))
  .init({
    loader: { load: ["input/tex", "output/svg", "a11y/assistive-mml"] },
    // An unknown macro is an error (MathJax would draw it in red, and the build would pass).
    tex: { packages: { "[+]": ["ams"], "[-]": ["noundefined"] } },
    svg: { fontCache: "local" },  // glyphs shared per page by math.py
    startup: { typeset: false },
  })
  .then((MJ) => {
    const a = MJ.startup.adaptor;
    const say = (o) => process.stdout.write(JSON.stringify(o) + "\n");
    say({ css: a.textContent(MJ.svgStylesheet()) });
    const rl = readline.createInterface({ input: process.stdin });
    rl.on("line", (line) => {
      const { tex, display } = JSON.parse(line);
      try {
        const node = MJ.tex2svg(tex, { display });
        const out = a.outerHTML(node);
        const err = out.match(/data-mjx-error="([^"]*)"/);
        say(err ? { error: err[1] } : { html: out });
      } catch (e) {
        say({ error: String(e && e.message ? e.message : e) });
      }
    });
  })
  .catch((e) => {
    process.stderr.write(String(e) + "\n");
    process.exit(1);
  });
