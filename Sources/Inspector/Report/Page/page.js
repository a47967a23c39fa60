// The report page's script (inspector report): reads the embedded data, draws the virtualized
// timeline and the overview strip, and for the current step the event, its diff, the app state
// tree and the machines' current cases. Embedded in the inspector at build time (Package.swift,
// `.embedInCode`) and inlined into the page; the page's Content-Security-Policy allows it by the
// hash of these exact bytes and no other script.
//
// Safety: every string from the trace reaches the DOM through `textContent` or as an attribute
// value set with `setAttribute`/`title`; the script never assigns markup (to an element's HTML
// or the like), and the policy's `require-trusted-types-for 'script'` makes the browser refuse it.
//
// The page opens at the step the URL names (`#step=N`), else at the first problem, else at the
// first event; the URL follows the cursor (`#step=N`), so that a link opens the same step.
// Test hooks, shared with the keyboard: `#keys=ArrowRight,ArrowRight` sends those keys through
// the same handler as real key presses, after `step`. When the page is ready, `<html>` has
// `data-ready="true"` and `<body>` has `data-step` and `data-position`.
(function () {
  'use strict';
  var startedAt = performance.now();
  var byId = function (id) { return document.getElementById(id); };
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  var hasOwn = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };

  // ---- Data -------------------------------------------------------------------------------
  var data = JSON.parse(byId('rw-data').textContent);
  var info = data.info, col = data.columns;
  var names = info.names, stores = info.stores, argumentTexts = info.arguments || [];
  var count = col.seq.length;
  var PALETTE = 12, ROW = 30;
  var nameOf = function (number) { return number >= 0 ? names[number] : null; };
  var storeClass = function (store) { return 'c' + ((store % PALETTE + PALETTE) % PALETTE); };

  // Each event's details are one line of JSON text, parsed only when shown.
  var detailsText = byId('rw-events').textContent;
  var lineStarts = (function () {
    var starts = [0], at = 0;
    for (;;) {
      var next = detailsText.indexOf('\n', at);
      if (next < 0) break;
      at = next + 1;
      starts.push(at);
    }
    return starts;
  })();
  // Numbers that JavaScript cannot hold exactly keep the text the trace wrote.
  function Num(text) { this.text = text; }
  var reviver = function (key, value, context) {
    if (typeof value === 'number' && context && typeof context.source === 'string' && String(value) !== context.source) {
      return new Num(context.source);
    }
    return value;
  };
  var cache = new Map();
  function details(line) {
    if (line < 0 || line + 1 >= lineStarts.length) return null;
    if (cache.has(line)) return cache.get(line);
    var value = null;
    try { value = JSON.parse(detailsText.slice(lineStarts[line], lineStarts[line + 1] - 1), reviver); } catch (error) { value = null; }
    cache.set(line, value);
    if (cache.size > 256) cache.delete(cache.keys().next().value);
    return value;
  }

  // Per store, the events that set its state, in order; and the window's starting states.
  var setsState = names.map(function (name) { return name === 'register' || name === 'transition' || name === 'restore'; });
  var storeEvents = stores.map(function () { return []; });
  for (var i = 0; i < count; i++) {
    var store = col.store[i];
    if (store >= 0 && setsState[col.type[i]]) (storeEvents[store] || (storeEvents[store] = [])).push(i);
  }
  var startOf = new Map();
  info.start.forEach(function (entry, index) { startOf.set(entry[0], { line: count + index, caseName: nameOf(entry[1]) }); });

  var problemsAt = new Map();
  info.problems.forEach(function (problem, index) {
    if (problem.event === null || problem.event === undefined) return;
    var list = problemsAt.get(problem.event) || [];
    list.push(index);
    problemsAt.set(problem.event, list);
  });
  var problemPositions = Array.from(problemsAt.keys()).map(function (event) { return event + 1; }).sort(function (a, b) { return a - b; });
  // A problem is on its event's own line, or on a line after it that is not an event.
  function isOwn(index, event) { return info.problems[index].line === col.line[event]; }
  function worst(indexes) {
    return indexes.some(function (index) { return info.problems[index].severity !== 'warning'; }) ? 'error' : 'warning';
  }

  // ---- Steps --------------------------------------------------------------------------------
  // Position p (0…count) is the moment after the p-th event of the report; 0 is the start.
  var position = -1;
  function stepAt(p) { return p <= 0 ? info.window.start : col.step[p - 1]; }
  function positionOfStep(step) {
    var low = 0, high = count;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (col.step[middle] <= step) low = middle + 1; else high = middle;
    }
    return low;
  }
  // The latest event of `store` before position p, or -1.
  function latestEvent(store, p) {
    var list = storeEvents[store] || [];
    var low = 0, high = list.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (list[middle] < p) low = middle + 1; else high = middle;
    }
    return low > 0 ? list[low - 1] : -1;
  }
  function stateOf(store, p) {
    var event = latestEvent(store, p);
    var line = event >= 0 ? event : (startOf.has(store) ? startOf.get(store).line : -1);
    if (line < 0) return undefined;
    var value = details(line);
    return value && hasOwn(value, 'state') ? value.state : undefined;
  }
  function caseOf(store, p) {
    var event = latestEvent(store, p);
    if (event >= 0) return nameOf(col.to[event]);
    return startOf.has(store) ? startOf.get(store).caseName : null;
  }
  function appState(p) {
    var state = Object.create(null), order = [];
    stores.forEach(function (name, store) {
      var value = stateOf(store, p);
      if (value !== undefined) { state[name] = value; order.push(store); }
    });
    return { state: state, order: order };
  }

  // ---- Values -------------------------------------------------------------------------------
  function kind(value) {
    if (value === null) return 'null';
    if (value instanceof Num) return 'number';
    if (Array.isArray(value)) return 'array';
    return typeof value;
  }
  function numberText(value) { return value instanceof Num ? value.text : String(value); }
  function same(a, b) {
    var ka = kind(a), kb = kind(b);
    if (ka !== kb) return false;
    if (ka === 'number') return numberText(a) === numberText(b);
    if (ka === 'array') {
      if (a.length !== b.length) return false;
      for (var i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
      return true;
    }
    if (ka === 'object') {
      var keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      for (var k = 0; k < keys.length; k++) if (!hasOwn(b, keys[k]) || !same(a[keys[k]], b[keys[k]])) return false;
      return true;
    }
    return a === b;
  }
  // Compact JSON of a value, cut after about `budget` characters.
  function compact(value, budget) {
    var out = [], used = 0, cut = false;
    function put(text) {
      if (cut) return;
      if (used + text.length > budget) { out.push(text.slice(0, Math.max(0, budget - used))); cut = true; return; }
      out.push(text); used += text.length;
    }
    (function write(value) {
      if (cut) return;
      switch (kind(value)) {
        case 'number': put(numberText(value)); break;
        case 'string': put(JSON.stringify(value)); break;
        case 'array':
          put('[');
          for (var i = 0; i < value.length && !cut; i++) { if (i) put(','); write(value[i]); }
          put(']'); break;
        case 'object':
          put('{');
          var keys = Object.keys(value);
          for (var k = 0; k < keys.length && !cut; k++) { if (k) put(','); put(JSON.stringify(keys[k]) + ':'); write(value[keys[k]]); }
          put('}'); break;
        default: put(String(value));
      }
    })(value);
    return out.join('') + (cut ? ' …' : '');
  }
  var IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  function member(path, key) { return IDENTIFIER.test(key) ? (path ? path + '.' + key : key) : path + '[' + JSON.stringify(key) + ']'; }
  function element(path, index) { return path + '[' + index + ']'; }

  // ---- Diff ---------------------------------------------------------------------------------
  var DIFF_LIMIT = 400;
  // `path` names what changed (items of arrays with ids by id, `lines[id: "MUG"]`); `tree` is
  // the same place by position, as the state tree names it (to open the tree down to it).
  function diff(a, b, path, out, tree) {
    if (tree === undefined) tree = path;
    if (out.length >= DIFF_LIMIT || same(a, b)) return;
    var ka = kind(a), kb = kind(b);
    if (ka === 'object' && kb === 'object') {
      Object.keys(a).forEach(function (key) {
        if (!hasOwn(b, key)) out.push({ op: 'removed', path: member(path, key), tree: member(tree, key), before: a[key] });
        else diff(a[key], b[key], member(path, key), out, member(tree, key));
      });
      Object.keys(b).forEach(function (key) {
        if (!hasOwn(a, key)) out.push({ op: 'added', path: member(path, key), tree: member(tree, key), after: b[key] });
      });
    } else if (ka === 'array' && kb === 'array') {
      diffArrays(a, b, path, out, tree);
    } else {
      out.push({ op: 'changed', path: path, tree: tree, before: a, after: b });
    }
  }
  // The ids of an array's elements when each is an object whose `id` is a string or an integer
  // and no two share one (as `inspector diff` names items); null otherwise.
  function itemIDs(array) {
    var ids = [], seen = new Set();
    for (var i = 0; i < array.length; i++) {
      var item = array[i];
      if (kind(item) !== 'object' || !hasOwn(item, 'id')) return null;
      var id = item.id;
      if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return null;
      var key = typeof id + ':' + id;
      if (seen.has(key)) return null;
      seen.add(key);
      ids.push(id);
    }
    return ids;
  }
  function byID(path, id) { return path + '[id: ' + JSON.stringify(id) + ']'; }
  // Arrays: elements matched by a longest common subsequence (for arrays of up to a few
  // hundred elements), so an insertion shows as one added element; unmatched runs are paired.
  // Items of arrays whose elements all have distinct ids are named by id.
  function diffArrays(a, b, path, out, tree) {
    var n = a.length, m = b.length;
    var pairs = [];
    var idsA = itemIDs(a), idsB = idsA && itemIDs(b);
    function name(ids, index, other) {
      return idsB && (other === undefined || other === ids[index]) ? byID(path, ids[index]) : element(path, index);
    }
    if (n * m <= 90000) {
      var table = new Array(n + 1);
      for (var i = 0; i <= n; i++) table[i] = new Uint32Array(m + 1);
      for (i = n - 1; i >= 0; i--) for (var j = m - 1; j >= 0; j--)
        table[i][j] = same(a[i], b[j]) ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
      i = 0; j = 0;
      while (i < n && j < m) {
        if (same(a[i], b[j])) { pairs.push([i, j]); i++; j++; }
        else if (table[i + 1][j] >= table[i][j + 1]) i++; else j++;
      }
    } else {
      for (var k = 0; k < Math.min(n, m); k++) if (same(a[k], b[k])) pairs.push([k, k]);
    }
    pairs.push([n, m]);
    var ai = 0, bj = 0;
    pairs.forEach(function (pair) {
      var removed = pair[0] - ai, added = pair[1] - bj, both = Math.min(removed, added);
      for (var t = 0; t < both; t++)
        diff(a[ai + t], b[bj + t], name(idsB, bj + t, idsA ? idsA[ai + t] : undefined), out, element(tree, bj + t));
      for (t = both; t < removed; t++) out.push({ op: 'removed', path: name(idsA, ai + t), tree: element(tree, ai + t), before: a[ai + t] });
      for (t = both; t < added; t++) out.push({ op: 'added', path: name(idsB, bj + t), tree: element(tree, bj + t), after: b[bj + t] });
      ai = pair[0] + 1; bj = pair[1] + 1;
    });
  }

  // ---- Header, slider, keys -------------------------------------------------------------------
  var slider = byId('rw-slider');
  slider.max = String(count);
  slider.addEventListener('input', function () { go(Number(slider.value)); });
  byId('rw-prev').addEventListener('click', function () { handleKey('ArrowLeft'); });
  byId('rw-next').addEventListener('click', function () { handleKey('ArrowRight'); });
  byId('rw-prev-problem').addEventListener('click', function () { handleKey('p'); });
  byId('rw-next-problem').addEventListener('click', function () { handleKey('n'); });
  if (!problemPositions.length) { byId('rw-prev-problem').disabled = true; byId('rw-next-problem').disabled = true; }

  function visibleRows() { return Math.max(1, Math.floor(rowsBox.clientHeight / ROW) - 1); }
  // The one handler for keys: real key presses and the #keys= test hook both come here.
  function handleKey(key) {
    switch (key) {
      case 'ArrowRight': case 'ArrowDown': case 'j': go(position + 1); return true;
      case 'ArrowLeft': case 'ArrowUp': case 'k': go(position - 1); return true;
      case 'PageDown': go(position + visibleRows()); return true;
      case 'PageUp': go(position - visibleRows()); return true;
      case 'Home': go(0); return true;
      case 'End': go(count); return true;
      case 'n': {
        var next = problemPositions.find(function (p) { return p > position; });
        if (next !== undefined) go(next);
        return true;
      }
      case 'p': {
        var earlier = problemPositions.filter(function (p) { return p < position; });
        if (earlier.length) go(earlier[earlier.length - 1]);
        return true;
      }
    }
    return false;
  }
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || target.tagName === 'TEXTAREA' || (target.tagName === 'INPUT' && target.type !== 'range'))) return;
    if (handleKey(event.key)) event.preventDefault();
  });
  // The step a fragment names (`#step=N`), or null.
  function fragmentStep(fragment) {
    var step = new URLSearchParams(fragment.replace(/^#/, '')).get('step');
    return step !== null && /^-?\d+$/.test(step) ? Number(step) : null;
  }
  function applyFragment(fragment) {
    // A plain id (the error badge's link to the problems): show that panel, step nowhere.
    var plain = /^#([A-Za-z][\w-]*)$/.exec(fragment);
    var target = plain && byId(plain[1]);
    if (target) { target.scrollIntoView({ block: 'start' }); target.focus({ preventScroll: true }); return; }
    var step = fragmentStep(fragment);
    if (step !== null) go(positionOfStep(step));
    var keys = new URLSearchParams(fragment.replace(/^#/, '')).get('keys');
    if (keys) keys.split(',').forEach(function (key) { handleKey(key.trim()); });
  }
  // Where the page opens without a step in its URL: at the first problem (a problem on a line
  // before every event is at the start), else at the first event (the start shows nothing yet).
  function openingPosition() {
    if (problemPositions.length) return problemPositions[0];
    return info.problems.length ? 0 : Math.min(1, count);
  }
  window.addEventListener('hashchange', function () { applyFragment(location.hash); });

  // ---- Timeline -----------------------------------------------------------------------------
  var rowsBox = byId('rw-rows'), spacer = byId('rw-spacer'), pool = [];
  spacer.style.height = (count * ROW) + 'px';
  rowsBox.setAttribute('data-rows', String(count));
  function describe(event) {
    var type = nameOf(col.type[event]);
    if (type === 'transition') return nameOf(col.action[event]) || '(no action)';
    return type || 'event';
  }
  function transitionText(event) {
    var from = nameOf(col.from[event]), to = nameOf(col.to[event]);
    if (from !== null && to !== null) return from + ' → ' + to;
    if (to !== null) return to;
    return '';
  }
  function fillRow(row, event) {
    row.style.transform = 'translateY(' + (event * ROW) + 'px)';
    var selected = event === position - 1;
    row.classList.toggle('selected', selected);
    row.classList.toggle('future', event >= position);
    if (row.rwEvent === event) return;
    row.rwEvent = event;
    var store = col.store[event];
    row.className = 'row ' + (store >= 0 ? storeClass(store) : 'c11') + (selected ? ' selected' : '') + (event >= position ? ' future' : '');
    row.setAttribute('data-event', String(event));
    var marker = row.children[0], seq = row.children[1], chip = row.children[2], what = row.children[3];
    var problems = problemsAt.get(event);
    var own = !!problems && problems.some(function (index) { return isOwn(index, event); });
    marker.className = problems ? 'mk ' + worst(problems) + (own ? '' : ' after') : 'mk';
    marker.textContent = problems ? '!' : '';
    marker.title = problems ? problems.map(function (index) { return 'line ' + info.problems[index].line + ': ' + info.problems[index].message; }).join('\n') : '';
    row.classList.toggle('problem', own);
    seq.textContent = col.seq[event] >= 0 ? '#' + col.seq[event] : '?';
    chip.firstChild.textContent = store >= 0 ? stores[store] : '—';
    chip.title = store >= 0 ? stores[store] : '';
    clear(what);
    what.appendChild(el('span', describe(event).length >= 6 ? 'act long' : 'act', describe(event)));
    var transition = transitionText(event);
    if (transition) what.appendChild(el('span', 'tr', transition));
    var extra = el('span', 'extra'), args = col.args && col.args[event] >= 0 ? argumentTexts[col.args[event]] : null;
    if (col.changed[event] === 0) extra.appendChild(el('span', 'same', 'no change'));
    if (args !== null) extra.appendChild(el('span', 'args', args));
    if (extra.firstChild) what.appendChild(extra);
    // The tooltip has the whole arguments, read from the event's details when pointed at.
    what.title = describe(event) + (transition ? '  ' + transition : '') + (args !== null ? '\n' + args : '');
    row.rwTitled = args === null;
  }
  // The arguments whole, as the row shows them shortened: `sku: "MUG", quantity: 2`.
  function argumentsText(event) {
    var value = details(event);
    if (!value || kind(value.args) !== 'object') return null;
    return Object.keys(value.args).map(function (key) { return key + ': ' + compact(value.args[key], 2000); }).join(', ');
  }
  function titleRow(row) {
    if (row.rwTitled || row.rwEvent < 0) return;
    row.rwTitled = true;
    var event = row.rwEvent, transition = transitionText(event), args = argumentsText(event);
    if (args !== null) row.children[3].title = describe(event) + (transition ? '  ' + transition : '') + '\n' + args;
  }
  function makeRow() {
    var row = el('div', 'row');
    row.setAttribute('role', 'option');
    row.appendChild(el('span', 'mk'));
    row.appendChild(el('span', 'seq'));
    var chip = el('span', '');
    chip.appendChild(el('span', 'store'));
    row.appendChild(chip);
    row.appendChild(el('span', 'what'));
    row.addEventListener('click', function () { go(row.rwEvent + 1); });
    row.addEventListener('pointerenter', function () { titleRow(row); });
    return row;
  }
  function drawRows() {
    var top = rowsBox.scrollTop, height = rowsBox.clientHeight || 600;
    var first = Math.max(0, Math.floor(top / ROW) - 6);
    var last = Math.min(count, Math.ceil((top + height) / ROW) + 6);
    while (pool.length < last - first) { var row = makeRow(); spacer.appendChild(row); pool.push(row); }
    for (var k = 0; k < pool.length; k++) {
      var event = first + k;
      if (event < last) { pool[k].hidden = false; fillRow(pool[k], event); } else { pool[k].hidden = true; pool[k].rwEvent = -1; }
    }
  }
  var drawQueued = false;
  rowsBox.addEventListener('scroll', function () {
    if (drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(function () { drawQueued = false; drawRows(); });
  });
  function revealRow(event) {
    if (event < 0) { rowsBox.scrollTop = 0; return; }
    var top = event * ROW, height = rowsBox.clientHeight;
    // A jump (a problem, a link, the slider) puts the row a third of the way down, with the
    // events that led to it above; a step next to the screen scrolls just enough.
    if (top + ROW < rowsBox.scrollTop - ROW || top > rowsBox.scrollTop + height + ROW) rowsBox.scrollTop = Math.max(0, top - Math.floor(height / 3));
    else if (top < rowsBox.scrollTop) rowsBox.scrollTop = Math.max(0, top - ROW);
    else if (top + ROW > rowsBox.scrollTop + height) rowsBox.scrollTop = top + 2 * ROW - height;
  }
  byId('rw-count').textContent = count === 1 ? '1 event' : count.toLocaleString('en-US') + ' events';
  // The seq and store columns as wide as this report's longest seq and store name need (the
  // store name cut past 118 pixels), so that the rest of the row is left for the action, its
  // from → to and its arguments.
  function sizeColumns() {
    var probe = makeRow(), widest = 0, longest = 0;
    // Columns of one pixel: each cell's scrollWidth is then its content's width.
    probe.style.visibility = 'hidden';
    probe.style.gridTemplateColumns = '14px 1px 1px 1fr';
    spacer.appendChild(probe);
    for (var e = 0; e < count; e++) if (col.seq[e] > longest) longest = col.seq[e];
    probe.children[1].textContent = '#' + longest;
    stores.slice(0, 64).forEach(function (name) {
      probe.children[2].firstChild.textContent = name;
      widest = Math.max(widest, probe.children[2].firstChild.scrollWidth + 2);
    });
    var seq = Math.ceil(probe.children[1].scrollWidth) + 2;
    spacer.removeChild(probe);
    rowsBox.style.setProperty('--seq', Math.max(30, seq) + 'px');
    rowsBox.style.setProperty('--chip', Math.max(40, Math.min(118, Math.ceil(widest))) + 'px');
  }
  sizeColumns();

  // ---- Overview strip: which store changed when, and where the problems are ------------------
  var overview = byId('rw-overview'), overviewBase = null;
  var colours = (function () {
    var style = getComputedStyle(document.documentElement), list = [];
    for (var c = 0; c < PALETTE; c++) list.push(style.getPropertyValue('--c' + c).trim() || '#64748b');
    return { stores: list, red: style.getPropertyValue('--red').trim() || '#c52020', amber: style.getPropertyValue('--amber').trim() || '#a85b00', accent: style.getPropertyValue('--accent').trim() || '#2458e6' };
  })();
  var lanes = Math.min(stores.length, 8);
  // The strip is cut into buckets of 3 pixels (2 drawn, 1 apart), each the events
  // floor(b × count / buckets) up to the next bucket's: a store's lane is drawn where it has
  // events, darker the more it has, and a bucket with a problem is drawn in the problem's
  // colour whatever else it holds, so that problems stay visible in 200,000 events: from the
  // top down to 40% of the strip for one problem, to the bottom for the bucket with the most,
  // so that where problems are everywhere their density still shows.
  var BUCKET = 3;
  function drawOverviewBase() {
    var ratio = window.devicePixelRatio || 1, width = Math.max(1, Math.round(overview.clientWidth * ratio)), height = Math.round(46 * ratio);
    overview.width = width; overview.height = height;
    var context = overview.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, width, height);
    if (count === 0) { overviewBase = null; return; }
    var buckets = Math.max(1, Math.min(count, Math.floor(overview.clientWidth / BUCKET)));
    overview.setAttribute('data-buckets', String(buckets));
    var band = Math.round(6 * ratio), laneHeight = lanes ? (height - band - 2 * ratio) / lanes : 0;
    var held = new Uint32Array(buckets * Math.max(1, lanes)), most = new Uint32Array(Math.max(1, lanes));
    for (var event = 0; event < count; event++) {
      var store = col.store[event];
      if (store < 0 || !lanes) continue;
      var at = Math.min(store, lanes - 1) * buckets + Math.floor(event * buckets / count);
      held[at]++;
    }
    for (var i = 0; i < held.length; i++) { var lane = Math.floor(i / buckets); if (held[i] > most[lane]) most[lane] = held[i]; }
    var problem = new Uint8Array(buckets), problems = new Uint32Array(buckets), mostProblems = 1;   // 2 an error, 1 only warnings
    problemsAt.forEach(function (indexes, event) {
      var b = Math.floor(event * buckets / count);
      problem[b] = Math.max(problem[b], worst(indexes) === 'error' ? 2 : 1);
      problems[b] += indexes.length;
      if (problems[b] > mostProblems) mostProblems = problems[b];
    });
    for (var b = 0; b < buckets; b++) {
      var x = Math.round(b * width / buckets), next = Math.round((b + 1) * width / buckets);
      var w = Math.max(1, next - x - (next - x >= 3 * ratio ? Math.round(ratio) : 0));
      var red = 0;
      if (problem[b]) {
        red = mostProblems === 1 ? height : Math.round(height * (0.4 + 0.6 * (problems[b] - 1) / (mostProblems - 1)));
        context.globalAlpha = 1;
        context.fillStyle = problem[b] === 2 ? colours.red : colours.amber;
        context.fillRect(x, 0, w, red);
      }
      for (lane = 0; lane < lanes && red < height; lane++) {
        var n = held[lane * buckets + b], top = band + 2 * ratio + lane * laneHeight;
        if (!n || top + laneHeight - ratio <= red) continue;
        context.globalAlpha = 0.35 + 0.65 * n / most[lane];
        context.fillStyle = colours.stores[lane % PALETTE];
        context.fillRect(x, Math.max(top, red), w, Math.max(1, top + laneHeight - ratio - Math.max(top, red)));
      }
    }
    context.globalAlpha = 1;
    overviewBase = context.getImageData(0, 0, width, height);
  }
  function drawOverview() {
    var context = overview.getContext('2d');
    if (!context || !overviewBase) return;
    context.putImageData(overviewBase, 0, 0);
    var x = count ? Math.round(position * overview.width / count) : 0;
    context.fillStyle = colours.accent;
    context.fillRect(Math.min(overview.width - 2, Math.max(0, x - 1)), 0, 2 * (window.devicePixelRatio || 1), overview.height);
  }
  function overviewTo(event) {
    var box = overview.getBoundingClientRect();
    go(Math.round((event.clientX - box.left) / Math.max(1, box.width) * count));
  }
  var dragging = false;
  overview.addEventListener('pointerdown', function (event) { dragging = true; overviewTo(event); });
  window.addEventListener('pointermove', function (event) { if (dragging) overviewTo(event); });
  window.addEventListener('pointerup', function () { dragging = false; });
  overview.title = (lanes ? 'Each lane is a store (' + stores.slice(0, lanes).join(', ') + (stores.length > lanes ? ', …' : '') + '), darker where it has more events; ' : '') + 'a red column holds a problem. Click to jump.';

  // ---- Event details ------------------------------------------------------------------------
  function storeChip(store) {
    var chip = el('span', 'store ' + storeClass(store), stores[store]);
    return chip;
  }
  function fact(list, term, value) {
    list.appendChild(el('dt', '', term));
    var dd = el('dd');
    if (value instanceof Node) dd.appendChild(value); else dd.textContent = value;
    list.appendChild(dd);
  }
  function drawEvent() {
    var box = byId('rw-event');
    clear(box);
    var event = position - 1;
    var title = byId('rw-step-title'), sub = byId('rw-step-sub');
    title.textContent = 'Step ' + stepAt(position);
    if (event < 0) {
      sub.textContent = info.window.whole ? 'the start, before any event' : 'the start of the window, before its first event';
      box.appendChild(el('p', 'empty', count === 0 ? 'This report has no events.' : info.window.whole
        ? 'No event yet: no store has registered. Press → to step forward.'
        : 'The app state just before step ' + info.window.first + '. Press → to step into the window.'));
      return;
    }
    sub.textContent = 'event ' + (event + 1).toLocaleString('en-US') + ' of ' + count.toLocaleString('en-US') + ' · line ' + col.line[event];
    var store = col.store[event], head = el('div', 'headline');
    if (store >= 0) head.appendChild(storeChip(store));
    head.appendChild(el('span', 'act', describe(event)));
    var from = nameOf(col.from[event]), to = nameOf(col.to[event]);
    if (from !== null) { head.appendChild(el('span', 'case', from)); head.appendChild(el('span', 'arrow', '→')); }
    if (to !== null) head.appendChild(el('span', 'case', to));
    var problems = problemsAt.get(event) || [];
    var kinds = [];
    problems.forEach(function (index) {
      var problem = info.problems[index];
      if (isOwn(index, event) && !kinds.some(function (k) { return k.kind === problem.kind; })) kinds.push(problem);
    });
    kinds.forEach(function (problem) { head.appendChild(el('span', 'badge ' + problem.severity, problem.kind)); });
    if (col.changed[event] === 0) head.appendChild(el('span', 'badge quiet', 'no change'));
    box.appendChild(head);
    var list = el('dl', 'facts');
    fact(list, 'seq', col.seq[event] >= 0 ? String(col.seq[event]) : 'unreadable');
    if (col.changed[event] >= 0) fact(list, 'changed', col.changed[event] ? 'yes' : 'no: the state after equals the state before');
    if (col.source[event] >= 0) fact(list, 'source', el('code', '', nameOf(col.source[event])));
    if (col.cause[event] >= 0) {
      var causeSeq = col.cause[event], causeEvent = -1;
      for (var e = event - 1; e >= 0 && e >= event - 100000; e--) if (col.seq[e] === causeSeq) { causeEvent = e; break; }
      if (causeEvent >= 0) {
        var link = el('button', 'link', '#' + causeSeq + ' ' + (col.store[causeEvent] >= 0 ? stores[col.store[causeEvent]] + '.' : '') + describe(causeEvent));
        link.addEventListener('click', function () { go(causeEvent + 1); });
        fact(list, 'caused by', link);
      } else {
        fact(list, 'caused by', '#' + causeSeq + ' (not in this report)');
      }
    }
    if (col.elapsed[event] !== null) fact(list, 'elapsed', formatSeconds(col.elapsed[event]));
    var value = details(event);
    if (value && hasOwn(value, 'args')) fact(list, 'arguments', el('code', '', compact(value.args, 600)));
    // The call stack that sent the action (an illegal transition records it), innermost first.
    if (value && Array.isArray(value.stack)) {
      var frames = el('ol', 'stack');
      value.stack.forEach(function (frame) {
        var item = el('li', '');
        item.appendChild(el('code', '', String(frame)));
        frames.appendChild(item);
      });
      fact(list, 'call stack', frames);
    }
    if (value === null) fact(list, 'note', 'this line could not be read again from the trace');
    box.appendChild(list);
    if (problems.length) {
      var messages = el('ul', 'messages');
      problems.forEach(function (index) {
        var problem = info.problems[index];
        var where = isOwn(index, event) ? '' : 'line ' + problem.line + ', after this event: ';
        messages.appendChild(el('li', problem.severity, where + problem.kind + ': ' + problem.message));
      });
      box.appendChild(messages);
    }
  }
  function formatSeconds(seconds) {
    if (seconds < 1) return (seconds * 1000).toFixed(seconds < 0.01 ? 3 : 1) + ' ms';
    return seconds.toFixed(3) + ' s';
  }

  // ---- Diff view ----------------------------------------------------------------------------
  var changedPaths = new Set();
  function drawDiff() {
    var box = byId('rw-diff'), note = byId('rw-diff-note');
    clear(box);
    changedPaths = new Set();
    note.textContent = '';
    var event = position - 1;
    if (event < 0) { box.appendChild(el('p', 'empty', 'Nothing has happened yet.')); return; }
    var store = col.store[event];
    if (store < 0 || !setsState[col.type[event]]) { box.appendChild(el('p', 'empty', 'This event changes no store.')); return; }
    var name = stores[store], before = stateOf(store, event), after = stateOf(store, event + 1);
    var changes = [];
    if (before === undefined) changes.push({ op: nameOf(col.type[event]) === 'register' ? 'registered' : 'added', path: member('', name), after: after });
    else diff(before, after, member('', name), changes);
    note.textContent = changes.length === 0 ? '' : changes.length >= DIFF_LIMIT ? 'first ' + DIFF_LIMIT + ' changes' : changes.length === 1 ? '1 change' : changes.length + ' changes';
    if (!changes.length) { box.appendChild(el('p', 'empty', 'No change: the state after equals the state before.')); return; }
    changes.forEach(function (change) {
      markChanged(change.tree || change.path);
      var item = el('div', 'change');
      var path = el('div', 'path', change.path);
      var op = el('span', 'op', change.op);
      path.insertBefore(op, path.firstChild);
      item.appendChild(path);
      if (hasOwn(change, 'before')) item.appendChild(el('div', 'line del', compact(change.before, 2000)));
      if (hasOwn(change, 'after')) item.appendChild(el('div', 'line ins', compact(change.after, 2000)));
      box.appendChild(item);
    });
  }
  function markChanged(path) {
    // The path and every path above it, so the tree opens down to each change.
    changedPaths.add(path);
    var cut = path.length;
    while (cut > 0) {
      var dot = path.lastIndexOf('.', cut - 1), bracket = path.lastIndexOf('[', cut - 1);
      cut = Math.max(dot, bracket);
      if (cut > 0) changedPaths.add(path.slice(0, cut));
    }
  }

  // ---- State tree ---------------------------------------------------------------------------
  var expanded = new Set(), collapsed = new Set(), CHUNK = 100;
  function isOpen(path, depth) {
    if (collapsed.has(path)) return false;
    return expanded.has(path) || depth === 0 || changedPaths.has(path);
  }
  function summary(value) {
    var k = kind(value);
    if (k === 'array') return value.length === 0 ? '[]' : '[ ' + value.length + (value.length === 1 ? ' item ]' : ' items ]');
    var size = Object.keys(value).length;
    return size === 0 ? '{}' : '{ ' + size + (size === 1 ? ' key }' : ' keys }');
  }
  function leafValue(value) {
    var k = kind(value), text = k === 'string' ? JSON.stringify(value) : k === 'number' ? numberText(value) : String(value);
    var span = el('span', 'v-' + k, text.length > 400 ? text.slice(0, 400) + ' …' : text);
    if (text.length > 400) span.title = text.slice(0, 20000);
    return span;
  }
  function keyLabel(key, isIndex, isStore, store) {
    if (isIndex) return el('span', 't-idx', key);
    var label = el('span', 't-key' + (isStore ? ' store-key ' + storeClass(store) : ''), IDENTIFIER.test(key) ? key : JSON.stringify(key));
    return label;
  }
  function treeNode(key, value, path, depth, isIndex, store) {
    var k = kind(value), wrap = el('div', 't-node');
    var row = el('div', 't-row' + (changedPaths.has(path) ? ' changed' : ''));
    wrap.appendChild(row);
    if (k !== 'object' && k !== 'array') {
      row.appendChild(el('span', 't-leaf-pad'));
      row.appendChild(keyLabel(key, isIndex, depth === 0, store));
      row.appendChild(el('span', 't-punct', ':'));
      row.appendChild(leafValue(value));
      return wrap;
    }
    var toggle = el('button', 't-toggle');
    toggle.type = 'button';
    toggle.appendChild(keyLabel(key, isIndex, depth === 0, store));
    row.appendChild(toggle);
    row.appendChild(el('span', 't-punct', ':'));
    row.appendChild(el('span', 't-sum', summary(value)));
    var children = null;
    function open(show) {
      toggle.setAttribute('aria-expanded', show ? 'true' : 'false');
      if (show && !children) {
        children = el('div', 't-children');
        fillChildren(children, value, path, depth + 1, 0);
        wrap.appendChild(children);
      }
      if (children) children.hidden = !show;
    }
    toggle.addEventListener('click', function () {
      var show = toggle.getAttribute('aria-expanded') !== 'true';
      if (show) { expanded.add(path); collapsed.delete(path); } else { expanded.delete(path); collapsed.add(path); }
      open(show);
    });
    open(isOpen(path, depth));
    return wrap;
  }
  function fillChildren(box, value, path, depth, from) {
    var isArray = Array.isArray(value), keys = isArray ? null : Object.keys(value);
    var total = isArray ? value.length : keys.length, end = Math.min(total, from + CHUNK);
    for (var index = from; index < end; index++) {
      if (isArray) box.appendChild(treeNode(String(index), value[index], element(path, index), depth, true));
      else box.appendChild(treeNode(keys[index], value[keys[index]], member(path, keys[index]), depth, false));
    }
    if (end < total) {
      var more = el('button', 'link more', 'show ' + Math.min(CHUNK, total - end) + ' more of ' + total.toLocaleString('en-US'));
      more.addEventListener('click', function () { box.removeChild(more); fillChildren(box, value, path, depth, end); });
      box.appendChild(more);
    }
  }
  function drawTree() {
    var box = byId('rw-tree');
    clear(box);
    var app = appState(position);
    byId('rw-tree-note').textContent = app.order.length === 1 ? '1 store' : app.order.length + ' stores';
    if (!app.order.length) { box.appendChild(el('p', 'empty', '{} — no store has registered yet.')); return; }
    app.order.forEach(function (store) {
      box.appendChild(treeNode(stores[store], app.state[stores[store]], member('', stores[store]), 0, false, store));
    });
  }

  // ---- Machines -----------------------------------------------------------------------------
  var machines = info.machines.map(function (machine) {
    var nodes = new Map(), edges = new Map();
    machine.nodes.forEach(function (name, index) { nodes.set(name, index); });
    machine.edges.forEach(function (pair, index) { edges.set(pair[0] + '\u0000' + pair[1], index); });
    return { info: machine, nodes: nodes, edges: edges, node: null, edge: null };
  });
  // The stores of the current step: the event's own, the store of the event that caused it, and
  // those of the events it caused (looked for among the next 1,000 events).
  function involvedStores(event) {
    var list = [];
    function add(store) { if (store >= 0 && list.indexOf(store) < 0) list.push(store); }
    if (event < 0) return list;
    add(col.store[event]);
    var cause = col.cause[event];
    if (cause >= 0) for (var e = event - 1; e >= 0 && e >= event - 1000; e--) if (col.seq[e] === cause) { add(col.store[e]); break; }
    var seq = col.seq[event];
    if (seq >= 0) for (e = event + 1; e < count && e <= event + 1000; e++) if (col.cause[e] === seq) add(col.store[e]);
    return list;
  }
  // The graphs of the step's stores come first (in that order), the others after them in the
  // header's order; a CSS order, so nothing is rebuilt.
  var promoted = [];
  function orderMachines() {
    var involved = involvedStores(position - 1), first = [];
    involved.forEach(function (store) {
      machines.forEach(function (machine) { if (machine.info.store === store) first.push(machine); });
    });
    promoted.forEach(function (machine) {
      if (first.indexOf(machine) < 0) { var figure = byId(machine.info.id + '-figure'); if (figure) { figure.style.order = ''; figure.classList.remove('involved'); } }
    });
    first.forEach(function (machine, rank) {
      var figure = byId(machine.info.id + '-figure');
      if (figure) { figure.style.order = String(rank - first.length); figure.classList.add('involved'); }
    });
    promoted = first;
    var note = byId('rw-machines-note');
    if (note) note.textContent = machines.length > 1 && first.length ? "this step's " + (first.length === 1 ? 'store' : 'stores') + ' first' : '';
  }
  function drawMachines() {
    orderMachines();
    var event = position - 1;
    machines.forEach(function (machine) {
      var id = machine.info.id, store = machine.info.store;
      var svg = byId(id);
      if (!svg) return;
      var caseName = store >= 0 ? caseOf(store, position) : null;
      var node = caseName !== null && machine.nodes.has(caseName) ? byId(id + '-n' + machine.nodes.get(caseName)) : null;
      if (machine.node !== node) {
        if (machine.node) machine.node.classList.remove('current');
        if (node) node.classList.add('current');
        machine.node = node;
      }
      var edge = null;
      if (event >= 0 && col.store[event] === store && store >= 0 && col.from[event] >= 0 && col.to[event] >= 0) {
        var key = nameOf(col.from[event]) + '\u0000' + nameOf(col.to[event]);
        if (machine.edges.has(key)) edge = byId(id + '-e' + machine.edges.get(key));
      }
      if (machine.edge !== edge) {
        if (machine.edge) {
          machine.edge.classList.remove('current');
          machine.edge.querySelector('path').setAttribute('marker-end', 'url(#' + id + '-' + machine.edge.getAttribute('data-kind') + ')');
        }
        if (edge) {
          edge.classList.add('current');
          // An illegal edge stays red when it is this step's: that is the step to see.
          var marker = edge.getAttribute('data-kind') === 'illegal' ? 'illegal' : 'current';
          edge.querySelector('path').setAttribute('marker-end', 'url(#' + id + '-' + marker + ')');
          edge.parentNode.appendChild(edge);
        }
        machine.edge = edge;
      }
      var label = byId(id + '-case');
      if (label) {
        clear(label);
        if (caseName === null) label.appendChild(el('span', 'muted', store >= 0 && latestEvent(store, position) < 0 && !startOf.has(store) ? 'not registered yet' : 'no case'));
        else {
          label.appendChild(el('span', 'muted', 'now '));
          label.appendChild(el('span', 'case', caseName));
          if (!machine.nodes.has(caseName)) label.appendChild(el('span', 'badge error', 'unknown case'));
        }
      }
    });
  }

  // ---- Problems -----------------------------------------------------------------------------
  var problemItems = [];
  (function drawProblems() {
    var list = byId('rw-problems');
    if (!list) return;
    info.problems.forEach(function (problem, index) {
      var item = el('li', problem.severity);
      var head = el('div', 'p-head');
      head.appendChild(el('span', 'badge ' + (problem.severity === 'warning' ? 'warning' : 'error'), problem.kind));
      var where = 'line ' + problem.line + (problem.seq !== undefined ? ' · seq ' + problem.seq : '') + (problem.store !== undefined ? ' · ' + problem.store : '');
      head.appendChild(el('span', 'p-where', where));
      item.appendChild(head);
      item.appendChild(el('div', 'p-msg', problem.message));
      var target = problem.event === null || problem.event === undefined ? 0 : problem.event + 1;
      item.setAttribute('data-event', String(problem.event === null || problem.event === undefined ? -1 : problem.event));
      item.title = 'Go to step ' + stepAt(target) + '\n' + problem.message;
      item.tabIndex = 0;
      item.addEventListener('click', function () { go(target); });
      item.addEventListener('keydown', function (event) { if (event.key === 'Enter') go(target); });
      list.appendChild(item);
      problemItems[index] = item;
    });
  })();
  function drawProblemMarks() {
    var current = problemsAt.get(position - 1) || [];
    problemItems.forEach(function (item, index) { item.classList.toggle('here', current.indexOf(index) >= 0); });
    // The list scrolls (not the page) to show the step's problem.
    var list = byId('rw-problems'), item = current.length ? problemItems[current[0]] : null;
    if (list && item && (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = Math.max(0, item.offsetTop - 6);
    }
  }

  // ---- Moving -------------------------------------------------------------------------------
  function go(target) {
    var p = Math.max(0, Math.min(count, Math.round(Number(target) || 0)));
    if (p === position) return;
    position = p;
    slider.value = String(p);
    byId('rw-prev').disabled = p === 0;
    byId('rw-next').disabled = p === count;
    revealRow(p - 1);
    drawRows();
    drawOverview();
    drawEvent();
    drawDiff();
    drawTree();
    drawMachines();
    drawProblemMarks();
    document.body.setAttribute('data-step', String(stepAt(p)));
    document.body.setAttribute('data-position', String(p));
    try { history.replaceState(null, '', '#step=' + stepAt(p)); } catch (error) { /* a file: URL may refuse */ }
  }

  window.addEventListener('resize', function () { drawOverviewBase(); drawOverview(); drawRows(); });
  var fragment = location.hash;
  drawOverviewBase();
  if (fragmentStep(fragment) === null) go(openingPosition());
  applyFragment(fragment);
  // How long the script took, and the page since navigation began, for the browser check's log.
  document.documentElement.setAttribute('data-init-ms', String(Math.round(performance.now() - startedAt)));
  document.documentElement.setAttribute('data-ready-ms', String(Math.round(performance.now())));
  document.documentElement.setAttribute('data-ready', 'true');
})();
