// Appended to a copy of a report page by tests/report_in_browser.rs and run by headless
// Chromium: finds broken images and empty figures as a reader's browser renders them, and
// writes what it found as JSON into a pre element, id figure-check (read back with
// --dump-dom).
(function () {
  const problems = [];
  const figures = [];
  for (const img of document.images) {
    if (!img.complete || img.naturalWidth === 0) problems.push("broken image: " + img.src);
  }
  const neutral = new Set(["#FFFFFF", "#E1E1E1", "none", ""]);
  document.querySelectorAll("figure").forEach(function (fig, i) {
    const svg = fig.querySelector("svg");
    const name = (fig.previousElementSibling && fig.previousElementSibling.textContent) || "figure " + (i + 1);
    if (!svg) { problems.push(name + ": no drawing"); return; }
    const box = svg.getBoundingClientRect();
    if (box.width < 50 || box.height < 50) { problems.push(name + ": drawn " + box.width + "x" + box.height); return; }
    // The plotting frame: the axes, the longest black vertical and horizontal lines.
    let frame = null;
    const axes = Array.from(svg.querySelectorAll("polyline")).filter(function (p) {
      return (p.getAttribute("stroke") || "").toUpperCase() === "#000000";
    }).map(function (p) { return p.getBBox(); });
    const vertical = axes.filter(function (b) { return b.width < 1; }).sort(function (a, b) { return b.height - a.height; })[0];
    const horizontal = axes.filter(function (b) { return b.height < 1; }).sort(function (a, b) { return b.width - a.width; })[0];
    if (vertical && horizontal) {
      frame = { x0: vertical.x, x1: horizontal.x + horizontal.width, y0: vertical.y, y1: horizontal.y };
    }
    const says = svg.textContent;
    const saysEmpty = says.includes("no data in any series") || says.includes("nothing measured");
    let marks = 0;
    if (frame) {
      svg.querySelectorAll("polyline, circle, line, path").forEach(function (e) {
        const colour = (e.getAttribute("stroke") || e.getAttribute("fill") || "").toUpperCase();
        if (neutral.has(colour)) return;
        const b = e.getBBox();
        const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
        const inside = cx > frame.x0 + 0.5 && cx < frame.x1 - 0.5 && cy > frame.y0 + 0.5 && cy < frame.y1 - 0.5;
        const extent = Math.max(b.width, b.height);
        if (inside && extent > 0) marks += 1;
      });
    }
    figures.push({ name: name.trim(), marks: marks, says_empty: saysEmpty, width: box.width, height: box.height });
    if (!frame && !saysEmpty) problems.push(name + ": no axes");
    else if (marks === 0 && !saysEmpty) problems.push(name + ": empty figure (axes, no data, no note)");
  });
  const out = document.createElement("pre");
  out.id = "figure-check";
  out.textContent = JSON.stringify({ problems: problems, figures: figures });
  document.body.appendChild(out);
})();
