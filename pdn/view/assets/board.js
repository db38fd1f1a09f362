/* The board of the pdn pages (the game viewer and the opening explorer inline it): one SVG
 * from a board's geometry (pdn/view/viewer.py board_geometry: the screen cell of every square)
 * and what to show on it. No rules: the pieces and the squares a move changed are given. */
var PdnBoard = (function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var CHANGE = /(\d+)([.bwBW])/g;

  function sv(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  // "W9.13b" (the side to move after a move, then square and new content) -> [[9, "."], ...]
  function parseChange(text) {
    var out = [], m;
    CHANGE.lastIndex = 0;
    while ((m = CHANGE.exec(text.slice(1)))) out.push([+m[1], m[2]]);
    return out;
  }

  // The pieces (an array of letters, square 1 first) after a change string.
  function apply(pieces, text) {
    var after = pieces.slice();
    parseChange(text).forEach(function (c) { after[c[0] - 1] = c[1]; });
    return after;
  }

  // b: the geometry; state: pieces (letters), turn ("B"/"W"), flip, numbers, changes (of the
  // move that led here, [[square, letter]]), before (the pieces before it), illegal (frame the
  // board, the move in red), paths (squares of legal moves, drawn as dashed arrows).
  function draw(b, state) {
    var flip = !!state.flip, cell = 40;
    var margin = 16, side = 22, w = b.w * cell, h = b.h * cell;
    var svg = sv("svg", { "class": "pdnv-svg", viewBox: "0 0 " + (margin + w + side) + " " +
      (h + margin), width: margin + w + side, height: h + margin });
    svg.setAttribute("data-flipped", flip ? "1" : "0");
    var ortho = b.layout === "orthogonal";
    svg.appendChild(sv("rect", { x: margin, y: 0, width: w, height: h,
      fill: ortho ? "#dcb77a" : "#f0d9b5" }));
    function at(square) {
      var c = b.cells[square - 1], col = c[0], row = c[1];
      if (flip) { col = b.w - 1 - col; row = b.h - 1 - row; }
      return [margin + col * cell, row * cell];
    }
    var changes = state.changes || [], before = state.before || null;
    var moved = {}, captured = {}, mover = null;
    changes.forEach(function (c) { if (c[1] !== ".") { moved[c[0]] = true; mover = c[1].toLowerCase(); } });
    changes.forEach(function (c) {
      if (c[1] !== "." || !before) return;
      var was = before[c[0] - 1].toLowerCase();
      if (was === mover) moved[c[0]] = true; else captured[c[0]] = true;
    });
    var illegal = !!state.illegal;
    for (var s = 1; s <= b.cells.length; s++) {
      var p = at(s);
      var fill = moved[s] ? (illegal ? "#f1a9a0" : "#f2d649") : (ortho ? "#dcb77a" : "#b58863");
      var rect = sv("rect", { "class": "square", "data-square": s, x: p[0], y: p[1],
        width: cell, height: cell, fill: fill });
      if (ortho) { rect.setAttribute("stroke", "#8a6a3a"); rect.setAttribute("stroke-width", "0.6"); }
      svg.appendChild(rect);
      if (state.numbers) {
        var t = sv("text", { x: p[0] + 2, y: p[1] + 10, "font-size": 9, fill: "#fff8e8",
          "class": "number" });
        t.textContent = String(s);
        svg.appendChild(t);
      }
    }
    var pieces = state.pieces;
    for (var q = 1; q <= pieces.length; q++) {
      var letter = pieces[q - 1];
      if (letter === ".") continue;
      var pos = at(q), cx = pos[0] + cell / 2, cy = pos[1] + cell / 2;
      var white = letter.toLowerCase() === "w";
      var g = sv("g", { "class": "piece", "data-square": q, "data-piece": letter });
      g.appendChild(sv("circle", { cx: cx, cy: cy, r: cell * 0.38, fill: white ? "#fbfbf6" : "#2e2e2e",
        stroke: white ? "#333" : "#000", "stroke-width": 1.5 }));
      if (letter === "W" || letter === "B") {
        g.appendChild(sv("circle", { cx: cx, cy: cy, r: cell * 0.19, fill: "none",
          stroke: white ? "#333" : "#e8e8e8", "stroke-width": 2.4 }));
      }
      svg.appendChild(g);
    }
    Object.keys(captured).forEach(function (k) {
      var pos = at(+k), cx = pos[0] + cell / 2, cy = pos[1] + cell / 2, d = cell * 0.22;
      svg.appendChild(sv("path", { "class": "captured", "data-square": k, stroke: "#e04b3c",
        "stroke-width": 3, "stroke-linecap": "round",
        d: "M" + (cx - d) + "," + (cy - d) + "L" + (cx + d) + "," + (cy + d) +
           "M" + (cx - d) + "," + (cy + d) + "L" + (cx + d) + "," + (cy - d) }));
    });
    (state.paths || []).forEach(function (path) {
      var points = path.map(function (q) { var p = at(q); return (p[0] + cell / 2) + "," + (p[1] + cell / 2); });
      svg.appendChild(sv("polyline", { "class": "legal", points: points.join(" "), fill: "none",
        stroke: "#1f8a3a", "stroke-width": 4, "stroke-dasharray": "6 4", "stroke-opacity": 0.85,
        "stroke-linecap": "round" }));
    });
    if (illegal) {
      svg.appendChild(sv("rect", { "class": "illegal-frame", x: margin + 1.5, y: 1.5, width: w - 3,
        height: h - 3, fill: "none", stroke: "#d0281a", "stroke-width": 3 }));
    }
    for (var c = 0; c < b.w; c++) {
      var file = sv("text", { x: margin + (c + 0.5) * cell, y: h + 12, "font-size": 10,
        "text-anchor": "middle", fill: "#444" });
      file.textContent = String.fromCharCode(97 + (flip ? b.w - 1 - c : c));
      svg.appendChild(file);
    }
    for (var r = 0; r < b.h; r++) {
      var rank = sv("text", { x: margin / 2, y: (r + 0.5) * cell + 4, "font-size": 10,
        "text-anchor": "middle", fill: "#444" });
      rank.textContent = String(flip ? r + 1 : b.h - r);
      svg.appendChild(rank);
    }
    var bottom = (state.turn === "W") !== flip;
    svg.appendChild(sv("circle", { "class": "turn", "data-turn": state.turn, cx: margin + w + side / 2,
      cy: bottom ? h - 12 : 12, r: 7, fill: state.turn === "W" ? "#fbfbf6" : "#2e2e2e",
      stroke: "#000", "stroke-width": 1 }));
    return svg;
  }

  return { draw: draw, parseChange: parseChange, apply: apply, svg: sv };
})();
