/* The pdn game viewer (pdn/viewer.py writes the data this script reads).
 * Positions are never computed here: each move carries the side to move after it and the
 * squares the engine says it changed. Every value from a file is shown with textContent. */
var PdnViewer = (function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var CHANGE = /(\d+)([.bwBW])/g;
  var ROW_HEIGHT = 24;
  var MAX_NESTING = 12;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function sv(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function parseChange(text) {
    var out = [], m;
    CHANGE.lastIndex = 0;
    while ((m = CHANGE.exec(text.slice(1)))) out.push([+m[1], m[2]]);
    return out;
  }

  function Viewer(root) {
    var self = this;
    this.root = root;
    this.meta = JSON.parse(document.getElementById(root.id + "-meta").textContent);
    this.source = document.getElementById(root.id + "-games");
    this.lines = null;
    this.flipped = false;
    this.numbers = true;
    this.filtered = this.meta.rows.map(function (_, i) { return i; });
    this.lower = null;
    this.build();
    this.open(0);
    var target = root.getAttribute("data-keys") === "page" ? document : root;
    target.addEventListener("keydown", function (ev) { self.key(ev); });
  }

  Viewer.prototype.build = function () {
    var self = this, root = this.root, rows = this.meta.rows;
    root.textContent = "";
    if (rows.length > 1) {
      var list = el("div", "pdnv-list");
      var filter = el("input", "pdnv-filter");
      filter.type = "search";
      filter.placeholder = "Filter: player, event, round, result, ballot, verdict";
      filter.addEventListener("input", function () { self.filter(filter.value); });
      this.count = el("div", "pdnv-count");
      var head = el("div", "pdnv-row pdnv-row-head");
      this.meta.columns.forEach(function (c) { head.appendChild(el("span", "pdnv-cell", c)); });
      this.scroller = el("div", "pdnv-scroll");
      this.spacer = el("div", "pdnv-spacer");
      this.scroller.appendChild(this.spacer);
      this.scroller.addEventListener("scroll", function () { self.drawRows(); });
      list.appendChild(filter);
      list.appendChild(this.count);
      list.appendChild(head);
      list.appendChild(this.scroller);
      root.appendChild(list);
    }
    var main = el("div", "pdnv-main");
    this.title = el("div", "pdnv-title");
    this.verdict = el("div", "pdnv-verdict");
    var body = el("div", "pdnv-body");
    var left = el("div", "pdnv-left");
    this.boardBox = el("div", "pdnv-board");
    var controls = el("div", "pdnv-controls");
    function button(label, name, action) {
      var b = el("button", "pdnv-" + name, label);
      b.type = "button";
      b.title = name;
      b.addEventListener("click", function () { action(); root.focus({ preventScroll: true }); });
      controls.appendChild(b);
      return b;
    }
    button("\u00AB", "first", function () { self.go(self.rootNode); });
    button("\u25C0", "back", function () { self.back(); });
    button("\u25B6", "forward", function () { self.forward(); });
    button("\u00BB", "last", function () { self.toEnd(); });
    button("Flip", "flip", function () { self.flip(); });
    var numbersLabel = el("label", "pdnv-numbers-label");
    var numbers = el("input", "pdnv-numbers");
    numbers.type = "checkbox";
    numbers.checked = true;
    numbers.addEventListener("change", function () { self.numbers = numbers.checked; self.draw(); });
    numbersLabel.appendChild(numbers);
    numbersLabel.appendChild(document.createTextNode(" numbers"));
    controls.appendChild(numbersLabel);
    var jump = el("input", "pdnv-jump");
    jump.type = "number";
    jump.min = "0";
    jump.placeholder = "ply";
    jump.title = "jump to a mainline ply";
    jump.addEventListener("change", function () { self.jump(+jump.value); });
    controls.appendChild(jump);
    this.message = el("div", "pdnv-message");
    this.moveList = el("div", "pdnv-moves");
    this.graphBox = el("div", "pdnv-graph");
    left.appendChild(this.boardBox);
    left.appendChild(this.graphBox);
    left.appendChild(controls);
    left.appendChild(this.message);
    body.appendChild(left);
    body.appendChild(this.moveList);
    main.appendChild(this.title);
    main.appendChild(this.verdict);
    main.appendChild(body);
    root.appendChild(main);
    if (this.scroller) this.filter("");
  };

  // ---------------------------------------------------------------- the game list (lazy)

  Viewer.prototype.filter = function (text) {
    var rows = this.meta.rows, words = text.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length && !this.lower) {
      this.lower = rows.map(function (r) { return r.join("\u0001").toLowerCase(); });
    }
    var lower = this.lower;
    this.filtered = [];
    for (var i = 0; i < rows.length; i++) {
      if (words.every(function (w) { return lower[i].indexOf(w) >= 0; })) this.filtered.push(i);
    }
    this.count.textContent = this.filtered.length + " of " + rows.length + " games";
    this.spacer.style.height = this.filtered.length * ROW_HEIGHT + "px";
    this.scroller.scrollTop = 0;
    this.drawRows(true);
  };

  Viewer.prototype.drawRows = function (force) {
    var first = Math.floor(this.scroller.scrollTop / ROW_HEIGHT);
    var shown = Math.ceil((this.scroller.clientHeight || 400) / ROW_HEIGHT) + 2;
    if (!force && first === this.firstRow) return;
    this.firstRow = first;
    var self = this;
    Array.prototype.slice.call(this.spacer.childNodes).forEach(function (n) { n.remove(); });
    for (var k = first; k < Math.min(first + shown, this.filtered.length); k++) {
      (function (index, place) {
        var row = el("div", "pdnv-row" + (index === self.current ? " pdnv-row-current" : ""));
        row.style.top = place * ROW_HEIGHT + "px";
        row.setAttribute("data-game", String(index));
        self.meta.rows[index].forEach(function (value, c) {
          var cell = el("span", "pdnv-cell", value);
          if (c === 7) cell.className += " pdnv-status-" + value;
          row.appendChild(cell);
        });
        row.addEventListener("click", function () { self.open(index); });
        self.spacer.appendChild(row);
      })(this.filtered[k], k);
    }
  };

  Viewer.prototype.record = function (index) {
    if (this.lines === null) this.lines = this.source.textContent.split("\n").slice(1);
    return JSON.parse(this.lines[index]);
  };

  // ---------------------------------------------------------------- one game

  Viewer.prototype.open = function (index) {
    if (index < 0 || index >= this.meta.rows.length) return;
    this.current = index;
    this.game = this.record(index);
    this.board = this.meta.boards[this.meta.board_of[index]];
    var row = this.meta.rows[index];
    // The first mover's name first, as the result is read (Black in English checkers).
    var sides = this.game.first === "B" ? [row[1], row[0]] : [row[0], row[1]];
    this.title.textContent = (sides[0] || "?") + " \u2013 " + (sides[1] || "?") +
      (row[5] ? "   " + row[5] : "");
    var sub = [row[2], row[3] ? "round " + row[3] : "", row[4], row[6], this.game.variant]
      .filter(Boolean).join(" \u00b7 ");
    this.title.appendChild(el("div", "pdnv-subtitle", sub));
    this.showVerdict();
    var tags = el("details", "pdnv-tags");
    tags.appendChild(el("summary", null, "Tags (" + this.game.tags.length + ")"));
    var table = el("table");
    this.game.tags.forEach(function (pair) {
      var tr = el("tr");
      tr.appendChild(el("th", null, pair[0]));
      tr.appendChild(el("td", null, pair[1]));
      table.appendChild(tr);
    });
    tags.appendChild(table);
    this.verdict.appendChild(tags);
    this.rootNode = { prev: null, next: null, ply: 0, pieces: this.game.start.split(""),
                      turn: this.game.turn, rec: null, span: null };
    this.moveList.textContent = "";
    var comments = this.game.comments;
    for (var c = 0; c < comments.length; c++) {
      this.moveList.appendChild(el("span", "pdnv-comment", comments[c]));
    }
    this.buildLine(this.game.moves, this.rootNode, 1, this.moveList, true, 0);
    if (this.game.terminator) this.moveList.appendChild(el("span", "pdnv-result", this.game.terminator));
    this.go(this.rootNode);
    if (this.scroller) this.drawRows(true);
  };

  Viewer.prototype.showVerdict = function () {
    var game = this.game, v = this.verdict;
    v.textContent = "";
    v.className = "pdnv-verdict pdnv-status-" + game.status;
    v.appendChild(el("b", null, "Verdict: " + game.status));
    var errors = game.problems.filter(function (p) { return p.severity === "error"; });
    if (errors.length) {
      var p = errors[0];
      v.appendChild(el("span", null, "  " + (p.where ? p.where + ": " : "") + p.code + ": " +
        p.message + (errors.length > 1 ? "  (+" + (errors.length - 1) + " more)" : "")));
    }
    var general = game.general.map(function (i) { return game.problems[i]; });
    general.forEach(function (p) {
      v.appendChild(el("div", "pdnv-general", p.at + ": " + p.severity + " " + p.code + ": " + p.message));
    });
  };

  function moveOf(item) {
    if (Array.isArray(item)) return { s: item[0], d: item.length > 1 ? item[1] : null };
    return item;
  }

  // The move tree to nodes and spans, with a stack of lines rather than recursion, so that
  // variations nested thousands deep cannot overflow the script's stack.
  Viewer.prototype.buildLine = function (items, before, ply, box, mainline, depth) {
    var self = this, first = this.game.first;
    var work = [{ items: items, i: 0, prev: before, ply: ply, box: box, mainline: mainline,
                  depth: depth, close: false, started: true, parent: null }];
    while (work.length) {
      var job = work[work.length - 1];
      if (!job.started) {
        job.started = true;
        if (job.parent && job.close) job.parent.appendChild(el("span", "pdnv-bracket", "("));
        else if (job.parent) job.parent.appendChild(job.box);
      }
      if (job.i >= job.items.length) {
        work.pop();
        if (job.close) job.box.appendChild(el("span", "pdnv-bracket", ")"));
        continue;
      }
      var i = job.i, rec = moveOf(job.items[i]), prev = job.prev, at = job.box;
      job.i += 1;
      var node = { prev: prev, next: null, ply: job.ply, rec: rec, pieces: null, turn: null,
                   mainline: job.mainline, problems: rec.p || [] };
      if (i > 0 || job.mainline) prev.next = node;
      (rec.cb || []).forEach(function (t) { at.appendChild(el("span", "pdnv-comment", t)); });
      var mover = job.ply % 2 === 1 ? first : (first === "B" ? "W" : "B");
      if (this.game.turn !== first) mover = mover === "B" ? "W" : "B";
      var moveNumber = Math.floor((job.ply - 1 + (this.game.turn !== first ? 1 : 0)) / 2) + 1;
      var after = at.lastChild && at.lastChild.classList;
      var inLine = after && (after.contains("pdnv-move") || after.contains("pdnv-nag"));
      if (rec.setup === undefined && (mover === first || i === 0 || !inLine)) {
        at.appendChild(el("span", "pdnv-num", moveNumber + (mover === first ? "." : "...")));
      }
      var span = el("span", "pdnv-move", rec.setup !== undefined ? "[setup]" : rec.s);
      span.setAttribute("data-ply", String(job.ply));
      if (rec.setup !== undefined) span.title = rec.setup;
      if (node.problems.some(function (k) { return self.game.problems[k].severity === "error"; })) {
        span.className += " pdnv-illegal";
        span.title = node.problems.map(function (k) { return self.game.problems[k].message; }).join("\n");
      }
      if (rec.d === null || rec.d === undefined) span.className += " pdnv-unplayed";
      (function (n) { span.addEventListener("click", function () { self.go(n); }); })(node);
      node.span = span;
      at.appendChild(span);
      var marks = (rec.st || "") + (rec.g || []).join(" ");
      if (marks) at.appendChild(el("span", "pdnv-nag", marks));
      (rec.ca || []).forEach(function (t) { at.appendChild(el("span", "pdnv-comment", t)); });
      var lines = rec.vars || [];
      var ply0 = job.ply;
      if (rec.setup === undefined) job.ply += 1;
      job.prev = node;
      // Pushed last first, so that the first alternative is drawn first, each before the
      // line goes on. Nested blocks up to a depth; deeper lines go inline in brackets, so that
      // the document cannot get too deep to lay out.
      for (var v = lines.length - 1; v >= 0; v--) {
        var nested = job.depth < MAX_NESTING;
        work.push({ items: lines[v], i: 0, prev: prev, ply: ply0, mainline: false,
                    box: nested ? el("div", "pdnv-variation") : at, parent: at,
                    depth: job.depth + 1, close: !nested, started: false });
      }
    }
  };

  Viewer.prototype.position = function (node) {
    if (node.pieces) return node;
    var chain = [];
    for (var n = node; !n.pieces; n = n.prev) chain.push(n);
    for (var k = chain.length - 1; k >= 0; k--) {
      var m = chain[k], d = m.rec.d;
      if (d === null || d === undefined) {
        m.pieces = m.prev.pieces; m.turn = m.prev.turn; m.changes = [];
      } else {
        m.pieces = m.prev.pieces.slice();
        m.changes = parseChange(d);
        m.changes.forEach(function (c) { m.pieces[c[0] - 1] = c[1]; });
        m.turn = d.charAt(0);
      }
    }
    return node;
  };

  Viewer.prototype.go = function (node) {
    this.node = node;
    this.position(node);
    var spans = this.moveList.querySelectorAll(".pdnv-current");
    for (var i = 0; i < spans.length; i++) spans[i].classList.remove("pdnv-current");
    if (node.span) {
      node.span.classList.add("pdnv-current");
      // Scroll the move list only: scrollIntoView would scroll the whole page as well.
      var box = this.moveList, span = node.span;
      if (span.offsetTop < box.scrollTop) box.scrollTop = span.offsetTop;
      else if (span.offsetTop + span.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = span.offsetTop + span.offsetHeight - box.clientHeight;
      }
    }
    this.draw();
    this.drawGraph();
    this.explain();
  };
  Viewer.prototype.forward = function () { if (this.node.next) this.go(this.node.next); };
  Viewer.prototype.back = function () { if (this.node.prev) this.go(this.node.prev); };
  Viewer.prototype.toEnd = function () {
    var n = this.node;
    while (n.next) n = n.next;
    this.go(n);
  };
  Viewer.prototype.jump = function (ply) {
    var n = this.rootNode;
    while (n.next && n.ply < ply) n = n.next;
    this.go(n);
  };
  Viewer.prototype.flip = function () { this.flipped = !this.flipped; this.draw(); };

  Viewer.prototype.key = function (ev) {
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var handled = true;
    switch (ev.key) {
      case "ArrowRight": this.forward(); break;
      case "ArrowLeft": this.back(); break;
      case "Home": this.go(this.rootNode); break;
      case "End": this.toEnd(); break;
      case "ArrowDown": this.step(1); break;
      case "ArrowUp": this.step(-1); break;
      case "f": this.flip(); break;
      default: handled = false;
    }
    if (handled) ev.preventDefault();
  };
  Viewer.prototype.step = function (delta) {
    var at = this.filtered.indexOf(this.current) + delta;
    if (at >= 0 && at < this.filtered.length) this.open(this.filtered[at]);
  };

  Viewer.prototype.explain = function () {
    var node = this.node, game = this.game, box = this.message;
    box.textContent = "";
    var mover = node.turn === "W" ? "White" : "Black";
    box.appendChild(el("div", "pdnv-tomove", (node.ply ? "After ply " + node.ply + ". " : "Start. ") +
      mover + " to move."));
    if (node.rec && (node.rec.d === null || node.rec.d === undefined)) {
      box.appendChild(el("div", "pdnv-problem", "This move could not be replayed."));
    }
    (node.problems || []).forEach(function (k) {
      var p = game.problems[k];
      var line = el("div", "pdnv-problem pdnv-" + p.severity);
      line.appendChild(el("b", null, p.code + ": "));
      line.appendChild(document.createTextNode(p.message));
      box.appendChild(line);
      if (p.legal.length) {
        box.appendChild(el("div", "pdnv-legal", "Legal moves here: " + p.legal.join(", ")));
        if (p.severity === "error" && (p.paths || []).length) {
          box.appendChild(el("div", "pdnv-legal",
            "(The board shows the move as written; the dashed arrows are the legal moves.)"));
        }
      }
    });
  };

  // ---------------------------------------------------------------- the board

  Viewer.prototype.draw = function () {
    var b = this.board, node = this.node, flip = this.flipped, cell = 40;
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
    var setup = node.rec && node.rec.setup !== undefined;
    var changes = setup ? [] : node.changes || [], before = node.prev ? node.prev.pieces : null;
    var moved = {}, captured = {}, mover = null;
    changes.forEach(function (c) { if (c[1] !== ".") { moved[c[0]] = true; mover = c[1].toLowerCase(); } });
    changes.forEach(function (c) {
      if (c[1] !== "." || !before) return;
      var was = before[c[0] - 1].toLowerCase();
      if (was === mover) moved[c[0]] = true; else captured[c[0]] = true;
    });
    var illegal = (node.problems || []).some(function (k) {
      return this.game.problems[k].severity === "error";
    }, this);
    for (var s = 1; s <= b.cells.length; s++) {
      var p = at(s);
      var fill = moved[s] ? (illegal ? "#f1a9a0" : "#f2d649") : (ortho ? "#dcb77a" : "#b58863");
      var rect = sv("rect", { "class": "square", "data-square": s, x: p[0], y: p[1],
        width: cell, height: cell, fill: fill });
      if (ortho) { rect.setAttribute("stroke", "#8a6a3a"); rect.setAttribute("stroke-width", "0.6"); }
      svg.appendChild(rect);
      if (this.numbers) {
        var t = sv("text", { x: p[0] + 2, y: p[1] + 10, "font-size": 9, fill: "#fff8e8",
          "class": "number" });
        t.textContent = String(s);
        svg.appendChild(t);
      }
    }
    var pieces = node.pieces;
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
    // The legal moves where an illegal one was written: dashed arrows.
    (node.problems || []).forEach(function (k) {
      var problem = this.game.problems[k];
      if (problem.severity !== "error") return;
      (problem.paths || []).forEach(function (path) {
        var points = path.map(function (q) { var p = at(q); return (p[0] + cell / 2) + "," + (p[1] + cell / 2); });
        svg.appendChild(sv("polyline", { "class": "legal", points: points.join(" "), fill: "none",
          stroke: "#1f8a3a", "stroke-width": 4, "stroke-dasharray": "6 4", "stroke-opacity": 0.85,
          "stroke-linecap": "round" }));
      });
    }, this);
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
    var bottom = (node.turn === "W") !== flip;
    svg.appendChild(sv("circle", { "class": "turn", "data-turn": node.turn, cx: margin + w + side / 2,
      cy: bottom ? h - 12 : 12, r: 7, fill: node.turn === "W" ? "#fbfbf6" : "#2e2e2e",
      stroke: "#000", "stroke-width": 1 }));
    this.boardBox.textContent = "";
    this.boardBox.appendChild(svg);
  };

  // ---------------------------------------------------------------- the evaluation graph

  // The engine's value after each analysed move, for White (up) against Black (down), under the
  // board; a click on it goes to that ply of the mainline.
  Viewer.prototype.drawGraph = function () {
    var box = this.graphBox, data = this.game.evaluation, self = this;
    box.textContent = "";
    if (!data || !data.plies.length) return;
    var w = 360, h = 80, top = 4, range = data.range;
    var last = data.plies[data.plies.length - 1][0];
    function x(ply) { return (ply / Math.max(last, 1)) * w; }
    function y(value) { return top + (h / 2) * (1 - value / range); }
    var svg = sv("svg", { "class": "pdnv-graph-svg", viewBox: "0 0 " + w + " " + (h + 2 * top),
      width: w, height: h + 2 * top });
    var title = sv("title", {});
    title.textContent = "Evaluation for White, " + data.level + " (click: go to the ply)";
    svg.appendChild(title);
    svg.appendChild(sv("rect", { x: 0, y: top, width: w, height: h / 2, fill: "#f7f7f2" }));
    svg.appendChild(sv("rect", { x: 0, y: top + h / 2, width: w, height: h / 2, fill: "#e4e1d8" }));
    svg.appendChild(sv("line", { x1: 0, y1: y(0), x2: w, y2: y(0), stroke: "#999", "stroke-width": 1 }));
    var points = data.plies.map(function (p) { return x(p[0]) + "," + y(p[1]); });
    svg.appendChild(sv("polyline", { "class": "pdnv-graph-line", points: points.join(" "),
      fill: "none", stroke: "#1d5fd0", "stroke-width": 1.5 }));
    data.plies.forEach(function (p) {
      if (!p[2]) return;
      var dot = sv("circle", { "class": "pdnv-graph-mark", cx: x(p[0]), cy: y(p[1]), r: 3.5,
        fill: p[2] === "??" ? "#d0281a" : "#e89a1c" });
      var tip = sv("title", {});
      tip.textContent = p[3] + p[2];
      dot.appendChild(tip);
      svg.appendChild(dot);
    });
    var node = this.node;
    if (node && node.ply && node.mainline !== false) {
      svg.appendChild(sv("line", { "class": "pdnv-graph-now", x1: x(node.ply), y1: top,
        x2: x(node.ply), y2: top + h, stroke: "#f2a200", "stroke-width": 2 }));
    }
    svg.addEventListener("click", function (ev) {
      var r = svg.getBoundingClientRect();
      self.jump(Math.round(((ev.clientX - r.left) / r.width) * Math.max(last, 1)));
    });
    box.appendChild(svg);
  };

  return {
    mount: function (id) {
      var root = document.getElementById(id);
      if (root && !root.pdnViewer) root.pdnViewer = new Viewer(root);
      return root && root.pdnViewer;
    }
  };
})();
