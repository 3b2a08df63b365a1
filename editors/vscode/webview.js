// The heat map and pass list view: HTML from the replies of ptodb/passes and
// ptodb/heatmap. A pure function (no vscode API) so that a test renders the
// same page in headless chromium and checks the pixels
// (tests/cli/vscode_webview.sh). The page has no script and fetches nothing.
'use strict';

const CELL = 20; // pixels per heat cell
const HEAT_LEFT = 16, HEAT_TOP = 56; // where the grid is drawn (fixed: the test samples it)

// The colour of one cell: ptodb sends it (h.colours: the one heat scale,
// each cell's worst element as a fraction of its tolerance, white through
// light blue within it, reds outside it); an older ptodb without it: |diff|
// / max from white (0) to red (1).
function cellColour(h, k) {
  return h.colours ? h.colours[k] : heatColour(h.cells[k], h.max);
}

function heatColour(v, max) {
  let x = max > 0 && Number.isFinite(v) ? v / max : 0;
  x = Math.min(1, Math.max(0, x));
  const g = Math.round(255 * (1 - x));
  const hex = g.toString(16).padStart(2, '0');
  return `#ff${hex}${hex}`;
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

const VERDICT_COLOUR = { pass: '#2ca02c', fail: '#d62728', error: '#9467bd', unknown: '#7f7f7f' };

function heatSvg(h) {
  if (!h) return '<p id="noheat">No heat map yet: run the pass.</p>';
  const w = h.cols * CELL + 2, hh = h.rows * CELL + 2;
  let cells = '';
  for (let r = 0; r < h.rows; r++) {
    for (let c = 0; c < h.cols; c++) {
      const k = r * h.cols + c;
      const over = h.outside[k] > 0;
      cells += `<rect class="${over ? 'over' : 'in'}" x="${1 + c * CELL}" y="${1 + r * CELL}" width="${CELL}" height="${CELL}" ` +
        `fill="${cellColour(h, k)}"${over ? ' stroke="#000" stroke-width="2"' : ''}><title>${esc(h.cells[k])}</title></rect>`;
    }
  }
  return `<svg id="heat" class="heatmap" width="${w}" height="${hh}" viewBox="0 0 ${w} ${hh}">${cells}</svg>`;
}

function renderHtml(passes, heat, opts) {
  const csp = (opts && opts.cspSource) || "'none'";
  const rows = (passes ? passes.passes : []).map((p) => {
    const mad = p.outputs.map((o) => (o.maxAbsDiff === null ? '-' : Number(o.maxAbsDiff).toExponential(3))).join(' ');
    const current = passes.current === p.pass ? ' current' : '';
    return `<tr class="${esc(p.verdict)}${current}"><td>${esc(p.stem)}</td><td class="verdict" style="color:${VERDICT_COLOUR[p.verdict] || '#000'}">${esc(p.verdict)}</td><td>${esc(mad)}</td></tr>`;
  }).join('');
  const legend = heat
    ? `<p id="legend">${esc(heat.tensor)} ${heat.shape[0]}x${heat.shape[1]}: ` +
      (heat.colours
        ? `worst cell ${esc(Math.round(Number(heat.max) * 1000) / 10)}% of its tolerance, max |diff| ${Number(heat.maxAbsDiff).toExponential(3)}, `
        : `max |diff| ${Number(heat.max).toExponential(3)}, `) +
      `${heat.outsideElements} of ${heat.elements} elements outside tolerance (black border: a cell holding one)` +
      (heat.legend && heat.legend.meaning ? `<br>${esc(heat.legend.meaning)}` : '') + '</p>'
    : '';
  const heatHeight = heat ? heat.rows * CELL + 2 : 20;
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline' ${csp}">
<title>ptodb</title>
<style>
body { margin: 0; font: 13px sans-serif; background: #fff; color: #222; }
h2 { position: absolute; left: ${HEAT_LEFT}px; top: 8px; margin: 0; font-size: 16px; }
#heatbox { position: absolute; left: ${HEAT_LEFT - 1}px; top: ${HEAT_TOP - 1}px; }
#heat { display: block; }
#below { position: absolute; left: ${HEAT_LEFT}px; top: ${HEAT_TOP + heatHeight + 12}px; }
table { border-collapse: collapse; } td { padding: 2px 8px; border-bottom: 1px solid #ddd; }
tr.current td:first-child { font-weight: bold; }
</style></head><body>
<h2>ptodb: heat map and passes</h2>
<div id="heatbox">${heatSvg(heat)}</div>
<div id="below">${legend}<table id="passes">${rows}</table></div>
</body></html>
`;
}

module.exports = { renderHtml, heatColour, CELL, HEAT_LEFT, HEAT_TOP };
