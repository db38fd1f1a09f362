/* The pdn opening explorer's page (pdn/view/explorer_page.py writes the data this script reads).
 * No rules here: each reply carries the squares the engine says it changes; the board is
 * board.js's. The line played from the root is the address's # part, so the browser's back
 * button steps back. Every value from a file is shown with textContent. */
var PdnExplorer = (function () {
  "use strict";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function dates(f) {
    if (!f[5]) return "";
    return f[5] === f[6] ? f[5] : f[5] + " \u2013 " + f[6];
  }
  function games(f) { return f[0] + f[1] + f[2] + f[3]; }

  function Explorer(root) {
    var self = this;
    this.root = root;
    this.data = JSON.parse(document.getElementById(root.id + "-data").textContent);
    this.flipped = false;
    this.numbers = true;
    this.build();
    window.addEventListener("hashchange", function () { self.follow(); });
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "ArrowLeft") { self.back(); ev.preventDefault(); }
      else if (ev.key === "f") self.flip();
    });
    this.follow();
  }

  Explorer.prototype.build = function () {
    var self = this, root = this.root;
    root.textContent = "";
    this.crumbs = el("div", "pdnx-line");
    var body = el("div", "pdnv-body");
    var left = el("div", "pdnv-left");
    this.boardBox = el("div", "pdnv-board");
    var controls = el("div", "pdnv-controls");
    var back = el("button", "pdnx-back", "\u25C0");
    back.type = "button";
    back.title = "back";
    back.addEventListener("click", function () { self.back(); });
    var flip = el("button", "pdnv-flip", "Flip");
    flip.type = "button";
    flip.addEventListener("click", function () { self.flip(); });
    var label = el("label", "pdnv-numbers-label");
    var numbers = el("input", "pdnv-numbers");
    numbers.type = "checkbox";
    numbers.checked = true;
    numbers.addEventListener("change", function () { self.numbers = numbers.checked; self.draw(); });
    label.appendChild(numbers);
    label.appendChild(document.createTextNode(" numbers"));
    controls.appendChild(back);
    controls.appendChild(flip);
    controls.appendChild(label);
    left.appendChild(this.boardBox);
    left.appendChild(controls);
    this.info = el("div", "pdnx-info");
    body.appendChild(left);
    body.appendChild(this.info);
    this.foot = el("div", "pdnx-foot");
    root.appendChild(el("div", "pdnv-title", "Opening explorer"));
    root.appendChild(this.crumbs);
    root.appendChild(body);
    root.appendChild(this.foot);
  };

  // The path from the address: each step {move, node (-1: not in the page), change, reply}.
  Explorer.prototype.follow = function () {
    if (this.shown === location.hash) return;
    this.shown = location.hash;
    var text = decodeURIComponent(location.hash.slice(1));
    var moves = text ? text.split(" ") : [], nodes = this.data.nodes;
    var path = [], at = 0;
    for (var i = 0; i < moves.length && at >= 0; i++) {
      var replies = nodes[at].r, found = null;
      for (var k = 0; k < replies.length; k++) if (replies[k][0] === moves[i]) found = replies[k];
      if (!found) break;
      path.push({ move: found[0], node: found[3], change: found[4], reply: found });
      at = found[3];
    }
    this.path = path;
    this.show();
  };

  Explorer.prototype.go = function (moves) {
    var hash = "#" + encodeURIComponent(moves.join(" "));
    // A history entry for the back button; the page follows at once (hashchange comes later,
    // and then finds the address already shown).
    if (location.hash !== hash && !(hash === "#" && !location.hash)) location.hash = hash;
    this.follow();
  };
  Explorer.prototype.moves = function (upTo) {
    return this.path.slice(0, upTo).map(function (s) { return s.move; });
  };
  Explorer.prototype.back = function () {
    if (this.path.length) this.go(this.moves(this.path.length - 1));
  };
  Explorer.prototype.flip = function () { this.flipped = !this.flipped; this.draw(); };

  Explorer.prototype.show = function () {
    var self = this, data = this.data;
    // The pieces along the path, from the root's (no rules: the changes are the engine's).
    var pieces = data.root.split(""), turn = data.turn, before = null, changes = [];
    this.path.forEach(function (step) {
      before = pieces;
      changes = PdnBoard.parseChange(step.change);
      pieces = PdnBoard.apply(pieces, step.change);
      turn = step.change.charAt(0);
    });
    this.pieces = pieces; this.turn = turn; this.before = before; this.changes = changes;
    this.crumbs.textContent = "";
    var start = el("a", "pdnx-crumb", "Root");
    start.href = "#";
    start.addEventListener("click", function (ev) { ev.preventDefault(); self.go([]); });
    this.crumbs.appendChild(start);
    this.path.forEach(function (step, i) {
      self.crumbs.appendChild(document.createTextNode(" "));
      var a = el("a", "pdnx-crumb" + (i === self.path.length - 1 ? " pdnx-here" : ""), step.move);
      a.href = "#" + encodeURIComponent(self.moves(i + 1).join(" "));
      a.addEventListener("click", function (ev) { ev.preventDefault(); self.go(self.moves(i + 1)); });
      self.crumbs.appendChild(a);
    });
    this.draw();
    this.figures();
  };

  Explorer.prototype.draw = function () {
    this.boardBox.textContent = "";
    this.boardBox.appendChild(PdnBoard.draw(this.data.board, { pieces: this.pieces,
      turn: this.turn, flip: this.flipped, numbers: this.numbers, changes: this.changes,
      before: this.before }));
  };

  Explorer.prototype.figures = function () {
    var self = this, data = this.data, box = this.info;
    var last = this.path.length ? this.path[this.path.length - 1] : null;
    var index = last ? last.node : 0, node = index >= 0 ? data.nodes[index] : null;
    var side = this.turn === "W" ? "White" : "Black";
    box.textContent = "";
    var head = el("table", "pdnx-head");
    function row(label, value, cls) {
      var tr = el("tr", cls);
      tr.appendChild(el("th", null, label));
      tr.appendChild(el("td", null, value));
      head.appendChild(tr);
    }
    row("Position", data.variant + ", " + side + " to move, " + this.path.length +
      (this.path.length === 1 ? " ply" : " plies") + " from the root");
    if (!node) {
      row("Games", last.reply[2] + " reached this position", "pdnx-games");
      box.appendChild(head);
      box.appendChild(el("p", "pdnx-outside", "This position's replies are not in the page: it " +
        "lies more than " + data.plies + " plies below the root, or past the page's " +
        data.max_nodes + " positions. Explore from here with pdn explore FILES --format html " +
        "--moves \"" + this.fromStart() + "\"" + (data.line === null ? " (after the root)" : "") + "."));
      return;
    }
    if (node.n) row("Opening", node.n, "pdnx-name");
    var f = node.f;
    row("Games", games(f) + ": " + f[0] + " won, " + f[1] + " drawn, " + f[2] + " lost, " +
      f[3] + " unknown" + (f[4] === null ? "" : ", score " + f[4].toFixed(1) + "% for " + side),
      "pdnx-games");
    if (f[5]) row("Dates", dates(f), "pdnx-dates");
    if (node.pl) {
      row("Players", node.pl.map(function (p) { return p[0] + " " + p[1]; }).join(", "), "pdnx-players");
    }
    box.appendChild(head);
    if (node.r.length) {
      var table = el("table", "pdnx-replies");
      var tr = el("tr");
      ["Move", "Games", "Win", "Draw", "Loss", "Unknown", "Score %", "Dates", "Reached", "Note"]
        .forEach(function (h) { tr.appendChild(el("th", null, h)); });
      table.appendChild(tr);
      node.r.forEach(function (reply) {
        var rf = reply[1], tr = el("tr", "pdnx-reply" + (reply[3] < 0 ? " pdnx-out" : ""));
        tr.setAttribute("data-move", reply[0]);
        var cells = [reply[0], games(rf), rf[0], rf[1], rf[2], rf[3],
          rf[4] === null ? "" : rf[4].toFixed(1), dates(rf), reply[2]];
        cells.forEach(function (c) { tr.appendChild(el("td", null, String(c))); });
        var notes = [];
        if (reply[2] > games(rf)) notes.push("transposition: " + (reply[2] - games(rf)) + " more by other orders");
        if (reply[3] < 0) notes.push("not in the page");
        tr.appendChild(el("td", null, notes.join("; ")));
        tr.addEventListener("click", function () { self.go(self.moves(self.path.length).concat([reply[0]])); });
        table.appendChild(tr);
      });
      box.appendChild(table);
    } else {
      box.appendChild(el("p", "pdnx-none", games(f) ? "No game went on from here within the depth."
        : "No game of the collection reached this position within the depth."));
    }
    if (node.h) {
      box.appendChild(el("p", "pdnx-hidden", node.h + " replies played in fewer than " +
        data.min_games + " games are not shown (--min-games)."));
    }
  };

  // The moves from the start to here, when the root's line is known.
  Explorer.prototype.fromStart = function () {
    var moves = this.moves(this.path.length);
    if (this.data.line) moves = [this.data.line].concat(moves);
    return moves.join(" ");
  };

  Explorer.prototype.footer = function () {
    var data = this.data, foot = this.foot;
    foot.textContent = "";
    foot.appendChild(el("p", "pdnx-summary", data.summary));
    var parts = [];
    if (data.capped) parts.push(data.capped + " replies lead to positions left out by the cap of " +
      data.max_nodes + " positions (--max-nodes)");
    if (data.past_plies) parts.push(data.past_plies + " replies lead to positions more than " +
      data.plies + " plies below the root (--plies)");
    var text = "This page holds " + data.nodes.length + " positions: those reached from the root " +
      "by replies played in at least " + data.min_games + (data.min_games === 1 ? " game" : " games") +
      ", up to " + data.plies + " plies deep.";
    if (parts.length) text += " " + parts.join("; ") + ": their board and games are shown, not " +
      "their replies. Raise --plies or --max-nodes, raise --min-games, or start deeper with --moves.";
    foot.appendChild(el("p", "pdnx-left-out", text));
  };

  return {
    mount: function (id) {
      var root = document.getElementById(id);
      if (root && !root.pdnExplorer) {
        root.pdnExplorer = new Explorer(root);
        root.pdnExplorer.footer();
      }
      return root && root.pdnExplorer;
    }
  };
})();
