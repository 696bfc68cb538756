/* cybleu report. Every number here was computed in Python by cybleu; this script only unpacks,
 * sorts, filters and draws them. Text from the user's files is only ever set as textContent
 * (never parsed as HTML), so it shows literally and runs nothing. No network request is made. */
(function () {
  'use strict';
  var timings = window.__cybleuTimings = { start: performance.now() };
  var SVGNS = 'http://www.w3.org/2000/svg';

  // ------------------------------------------------------------------ DOM helpers
  function el(tag, attrs) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }
  function sv(tag, attrs) {
    var node = document.createElementNS(SVGNS, tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }
  function setAttrs(node, attrs) {
    if (!attrs) return;
    for (var k in attrs) {
      if (!Object.prototype.hasOwnProperty.call(attrs, k)) continue;
      var v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k === 'text') node.textContent = String(v);
      else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
  }
  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === 'string' || typeof child === 'number'
      ? document.createTextNode(String(child)) : child);
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  // Characters that would be invisible or would reorder text: shown as a labelled box instead.
  var SPECIAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/;
  function hex(c) { var s = c.charCodeAt(0).toString(16).toUpperCase(); return 'U+' + '0000'.slice(s.length) + s; }
  // a text, with special characters made visible; `max` cuts it (for table cells)
  function vis(s, max) {
    var frag = document.createDocumentFragment();
    if (s === null || s === undefined) { frag.appendChild(el('span', { class: 'muted', text: '(none)' })); return frag; }
    s = String(s);
    var cut = false;
    if (max && s.length > max) { s = s.slice(0, max); cut = true; }
    if (!SPECIAL.test(s)) { frag.appendChild(document.createTextNode(s)); }
    else {
      var run = '';
      for (var i = 0; i < s.length; i++) {
        var c = s[i];
        if (SPECIAL.test(c)) {
          if (run) { frag.appendChild(document.createTextNode(run)); run = ''; }
          frag.appendChild(el('span', { class: 'ctl', title: 'invisible or direction character ' + hex(c), text: hex(c) }));
        } else run += c;
      }
      if (run) frag.appendChild(document.createTextNode(run));
    }
    if (cut) frag.appendChild(document.createTextNode('\u2026'));
    return frag;
  }
  // the same, as plain text (for option labels, SVG text, tooltips)
  function visText(s, max) {
    s = s === null || s === undefined ? '' : String(s);
    if (max && s.length > max) s = s.slice(0, max) + '\u2026';
    return SPECIAL.test(s) ? s.replace(new RegExp(SPECIAL.source, 'g'), function (c) { return '\u27e8' + hex(c) + '\u27e9'; }) : s;
  }
  function fmt(x, d) { return x === null || x === undefined || isNaN(x) ? '\u2013' : x.toFixed(d === undefined ? 2 : d); }
  function fmtSigned(x, d) { if (x === null || x === undefined || isNaN(x)) return '\u2013'; var s = x.toFixed(d === undefined ? 2 : d); return x > 0 ? '+' + s : (s === '-0.00' ? '0.00' : s); }
  // a p-value with as many digits as it takes not to cross a level the page colours by
  // (0.0099 shown as "0.0100" would read as not below 0.01): 4 decimals, more where rounding
  // would reach a level, "< level" past 10
  function fmtP(p, levels) {
    if (p === null || p === undefined) return '\u2013';
    if (p < 0.0001) return p.toExponential(1);
    levels = levels || [0.01, D ? D.test.alpha : 0.05];
    for (var d = 4; d <= 10; d++) {
      var s = p.toFixed(d), v = +s, same = true;
      for (var k = 0; k < levels.length; k++) if ((v < levels[k]) !== (p < levels[k])) same = false;
      if (same) return s;
    }
    for (k = 0; k < levels.length; k++) if (p < levels[k] && +p.toFixed(10) >= levels[k]) return '< ' + levels[k];
    return p.toFixed(4);
  }
  function int(n) { return Number(n).toLocaleString('en-US'); }
  // a count as the page writes counts: thousands separated, two decimals for an average
  function count(x) { return Number.isInteger(x) ? int(x) : x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }); }
  function plural(n, word) { return int(n) + ' ' + word + (n === 1 ? '' : 's'); }
  // colours the canvas needs (SVG and HTML take them from the style sheet): the theme's
  function themeColour(name, fallback) {
    var v = getComputedStyle(document.documentElement).getPropertyValue(name);
    return v && v.trim() ? v.trim() : fallback;
  }
  // the width a chart may take: its preferred width, or the view's when that is narrower (a
  // phone), so that its text keeps its size instead of shrinking with the drawing
  // `box`: the element the chart goes in, already on the page (a column of a row)
  function chartWidth(preferred, box) {
    var view = views[S.view], avail = box && box.clientWidth ? box.clientWidth
      : view && view.clientWidth ? view.clientWidth : document.documentElement.clientWidth - 32;
    return Math.max(260, Math.min(preferred, Math.floor(avail)));
  }

  // ------------------------------------------------------------------ export (LaTeX, CSV, TSV)
  // A table for export: {name, caption, head: [labels], align: 'lrr...', rows: [[cell]]}, a cell
  // being {t: the text shown, v: the value in full (a number, a string or null)}. LaTeX takes
  // what the page shows; CSV and TSV the values in full. Numbers are Python's; this only formats.
  var LATEX_SPECIAL = { '&': '\\&', '%': '\\%', '$': '\\$', '#': '\\#', '_': '\\_', '{': '\\{', '}': '\\}',
    '~': '\\textasciitilde{}', '^': '\\textasciicircum{}', '\\': '\\textbackslash{}', '<': '\\textless{}',
    '>': '\\textgreater{}', '|': '\\textbar{}' };
  var NONPRINTING = /(?! )[\p{C}\p{Z}]/gu;   // as Python's str.isprintable: control, format, separators
  function latexEscape(s) {
    return String(s === null || s === undefined ? '' : s).replace(NONPRINTING, ' ').replace(/[&%$#_{}~^\\<>|]/g, function (c) { return LATEX_SPECIAL[c]; });
  }
  function csvCell(v, sep) {
    if (v === null || v === undefined) return '';
    if (typeof v === 'number') return isFinite(v) ? String(v) : '';
    var s = String(v);
    if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;   // not a formula in a spreadsheet
    if (s.indexOf(sep) >= 0 || /["\n\r]/.test(s)) s = '"' + s.replace(/"/g, '""') + '"';
    return s;
  }
  function tableText(model, format) {
    if (format === 'latex') {
      var out = ['% ' + latexEscape(model.caption), '\\begin{tabular}{' + model.align + '}', '\\toprule',
        model.head.map(latexEscape).join(' & ') + ' \\\\', '\\midrule'];
      model.rows.forEach(function (row) { out.push(row.map(function (c) { return latexEscape(c.t); }).join(' & ') + ' \\\\'); });
      out.push('\\bottomrule', '\\end{tabular}');
      return out.join('\n') + '\n';
    }
    var sep = format === 'tsv' ? '\t' : ',';
    var lines = [model.head.map(function (h) { return csvCell(h, sep); }).join(sep)];
    model.rows.forEach(function (row) { lines.push(row.map(function (c) { return csvCell(c.v, sep); }).join(sep)); });
    return lines.join('\n') + '\n';
  }
  function cell(t, v) { return { t: t, v: v === undefined ? t : v }; }
  var exporters = {};
  // buttons under a table: each opens its text in a box, to copy or to save as a file
  function exportBar(id, makeModel, formats) {
    exporters[id] = makeModel;
    var panel = el('div', { class: 'export-panel', hidden: true });
    var bar = el('div', { class: 'export', id: 'export-' + id }, el('span', { class: 'note small', text: 'Export ' }));
    (formats || ['latex', 'csv']).forEach(function (f) {
      bar.appendChild(el('button', { type: 'button', class: 'btn small-btn', 'data-format': f, text: { latex: 'LaTeX', csv: 'CSV', tsv: 'TSV' }[f],
        onclick: function () { showExport(panel, id, f); } }));
    });
    return el('div', { class: 'export-wrap' }, bar, panel);
  }
  function exportText(id, format) { return tableText(exporters[id](), format); }
  function showExport(panel, id, format) {
    var model = exporters[id](), text = tableText(model, format);
    var ta = el('textarea', { class: 'copy', readonly: true, spellcheck: 'false', 'aria-label': model.caption });
    ta.value = text;
    var status = el('span', { class: 'note small' });
    var file = model.name + '.' + (format === 'latex' ? 'tex' : format);
    clear(panel).appendChild(el('div', { class: 'export-head' },
      el('strong', { text: { latex: 'LaTeX (booktabs)', csv: 'CSV', tsv: 'TSV' }[format] }), ' ',
      el('button', { type: 'button', class: 'btn', text: 'Copy', onclick: function () { copyText(ta, status); } }), ' ',
      el('button', { type: 'button', class: 'btn', text: 'Save as ' + file, onclick: function () { saveText(text, file, format, status); } }), ' ',
      el('button', { type: 'button', class: 'btn', text: 'Close', onclick: function () { panel.hidden = true; } }), ' ', status));
    panel.appendChild(ta);
    panel.hidden = false;
  }
  function saveText(text, file, format, status) {
    try {
      var type = { latex: 'application/x-tex', csv: 'text/csv', tsv: 'text/tab-separated-values' }[format] + ';charset=utf-8';
      var url = URL.createObjectURL(new Blob([text], { type: type }));
      var a = el('a', { href: url, download: file });
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
      status.textContent = 'saved (where downloads are allowed; else copy it)';
    } catch (e) { status.textContent = 'cannot save here: copy it'; }
  }

  // ------------------------------------------------------------------ unpacking
  function b64bytes(text) {
    text = text.replace(/\s+/g, '');
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
    var bin = atob(text), n = bin.length, out = new Uint8Array(n);
    for (var i = 0; i < n; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function gunzip(bytes) {
    if (typeof DecompressionStream === 'function' && typeof Response === 'function' && typeof Blob === 'function') {
      try {
        var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
        return new Response(stream).arrayBuffer().then(function (buf) { return new Uint8Array(buf); },
          function () { return inflateGzip(bytes); });
      } catch (e) { /* fall through to the inflate below */ }
    }
    return Promise.resolve(inflateGzip(bytes));
  }
  // A small inflate (RFC 1951) with gzip framing (RFC 1952), for browsers without
  // DecompressionStream. Table-driven Huffman decoding; output grows as needed.
  var LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  var LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  var DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
  var DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
  var CLORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  function huffTable(lengths, n) {
    var max = 0, i;
    for (i = 0; i < n; i++) if (lengths[i] > max) max = lengths[i];
    if (max === 0) return { bits: 1, table: new Int32Array(2).fill(-1) };
    var count = new Int32Array(16), next = new Int32Array(16);
    for (i = 0; i < n; i++) count[lengths[i]]++;
    count[0] = 0;
    var code = 0;
    for (i = 1; i <= 15; i++) { code = (code + count[i - 1]) << 1; next[i] = code; }
    var size = 1 << max, table = new Int32Array(size).fill(-1);
    for (i = 0; i < n; i++) {
      var len = lengths[i];
      if (!len) continue;
      var c = next[len]++, rev = 0;
      for (var b = 0; b < len; b++) { rev = (rev << 1) | (c & 1); c >>= 1; }
      for (var j = rev; j < size; j += 1 << len) table[j] = (len << 16) | i;
    }
    return { bits: max, table: table };
  }
  function inflateGzip(src) {
    if (src[0] !== 0x1f || src[1] !== 0x8b || src[2] !== 8) throw new Error('not gzip data');
    var flg = src[3], p = 10;
    if (flg & 4) p += 2 + (src[p] | (src[p + 1] << 8));
    if (flg & 8) { while (src[p++]) {} }
    if (flg & 16) { while (src[p++]) {} }
    if (flg & 2) p += 2;
    var isize = (src[src.length - 4] | (src[src.length - 3] << 8) | (src[src.length - 2] << 16) | (src[src.length - 1] << 24)) >>> 0;
    return inflateRaw(src, p, isize || src.length * 4);
  }
  function inflateRaw(src, pos, sizeHint) {
    var out = new Uint8Array(Math.max(sizeHint, 1024)), op = 0, bitbuf = 0, bitcnt = 0;
    function need(n) { while (bitcnt < n) { bitbuf |= (pos < src.length ? src[pos] : 0) << bitcnt; pos++; bitcnt += 8; } }
    function bits(n) { if (!n) return 0; need(n); var v = bitbuf & ((1 << n) - 1); bitbuf >>>= n; bitcnt -= n; return v; }
    function room(n) {
      if (op + n <= out.length) return;
      var bigger = new Uint8Array(Math.max(out.length * 2, op + n));
      bigger.set(out.subarray(0, op)); out = bigger;
    }
    function decode(h) {
      need(h.bits);
      var e = h.table[bitbuf & ((1 << h.bits) - 1)];
      if (e < 0) throw new Error('bad deflate code');
      var len = e >>> 16; bitbuf >>>= len; bitcnt -= len;
      return e & 0xffff;
    }
    var fixedL = null, fixedD = null, last = 0;
    while (!last) {
      last = bits(1);
      var type = bits(2);
      if (type === 0) {
        bitbuf = 0; bitcnt = 0;
        var len = src[pos] | (src[pos + 1] << 8); pos += 4;
        room(len); out.set(src.subarray(pos, pos + len), op); op += len; pos += len;
        continue;
      }
      var lt, dt;
      if (type === 1) {
        if (!fixedL) {
          var l = new Uint8Array(288), i;
          for (i = 0; i < 144; i++) l[i] = 8;
          for (; i < 256; i++) l[i] = 9;
          for (; i < 280; i++) l[i] = 7;
          for (; i < 288; i++) l[i] = 8;
          fixedL = huffTable(l, 288);
          var d = new Uint8Array(30).fill(5);
          fixedD = huffTable(d, 30);
        }
        lt = fixedL; dt = fixedD;
      } else if (type === 2) {
        var hlit = bits(5) + 257, hdist = bits(5) + 1, hclen = bits(4) + 4;
        var cl = new Uint8Array(19);
        for (var k = 0; k < hclen; k++) cl[CLORDER[k]] = bits(3);
        var clt = huffTable(cl, 19), lens = new Uint8Array(hlit + hdist), n = 0;
        while (n < hlit + hdist) {
          var sym = decode(clt);
          if (sym < 16) lens[n++] = sym;
          else {
            var rep = 0, val = 0;
            if (sym === 16) { val = lens[n - 1]; rep = 3 + bits(2); }
            else if (sym === 17) rep = 3 + bits(3);
            else rep = 11 + bits(7);
            while (rep--) lens[n++] = val;
          }
        }
        lt = huffTable(lens.subarray(0, hlit), hlit);
        dt = huffTable(lens.subarray(hlit), hdist);
      } else throw new Error('bad deflate block');
      for (;;) {
        var s = decode(lt);
        if (s < 256) { room(1); out[op++] = s; }
        else if (s === 256) break;
        else {
          s -= 257;
          var length = LBASE[s] + bits(LEXT[s]);
          var ds = decode(dt);
          var dist = DBASE[ds] + bits(DEXT[ds]);
          room(length);
          for (var m = 0; m < length; m++) { out[op] = out[op - dist]; op++; }
        }
      }
    }
    return out.subarray(0, op);
  }
  window.__cybleuInflate = inflateGzip;   // exposed for the tests of the fallback

  function unpack(bytes) {
    if (bytes[0] !== 0x43 || bytes[1] !== 0x59 || bytes[2] !== 0x42 || bytes[3] !== 0x52) throw new Error('not a cybleu report container');
    var dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    var n = dv.getUint32(8, true);
    var header = JSON.parse(new TextDecoder('utf-8').decode(bytes.subarray(12, 12 + n)));
    var base = 12 + n; base += (8 - base % 8) % 8;
    var kinds = { f64: Float64Array, f32: Float32Array, i32: Int32Array, u32: Uint32Array, u16: Uint16Array, i16: Int16Array, u8: Uint8Array, i8: Int8Array };
    var arrays = {};
    // copy into a fresh buffer so every array is aligned for its type
    var body = bytes.slice(base);
    Object.keys(header.arrays).forEach(function (name) {
      var spec = header.arrays[name], Kind = kinds[spec[1]];
      arrays[name] = new Kind(body.buffer, body.byteOffset + spec[0], spec[2]);
    });
    return { header: header, arrays: arrays };
  }

  // ------------------------------------------------------------------ state
  var D = null, A = null;          // the header, the arrays
  var S = {                        // what the user chose
    set: 0, view: 'overview', ovMetric: 0, a: 0, b: 1, cmpMetric: 0, anatomy: 0,
    sort: { key: 'delta', dir: -1 }, q: '', lo: '', hi: '', rangeOn: 'delta',
    selected: -1, ngOrder: 0, bucketMetric: 0, segFilter: null
  };
  var views = {};
  var VIEWS = [
    ['overview', 'Overview'], ['interpretation', 'Interpretation'], ['anatomy', 'Anatomy'],
    ['compare', 'Two systems'], ['ngrams', 'N-grams'], ['buckets', 'Buckets']
  ];
  function T() { return D.sets[S.set]; }
  // the first metric that offers a view (its data says so: the page never names a metric)
  function metricWith(view) { var ms = T().metrics; for (var i = 0; i < ms.length; i++) if ((ms[i].views || []).indexOf(view) >= 0) return i; return -1; }
  function digitsOf(m) { return m.digits === undefined ? 2 : m.digits; }
  // where the corpus scores come from: sacreBLEU's arithmetic, or the mean of segment scores
  function scoresNote(ms) {
    var means = ms.filter(function (m) { return m.aggregation === 'mean'; }).map(function (m) { return m.name; });
    if (!means.length) return 'Scores are sacreBLEU 2.6.0\u2019s';
    if (means.length === ms.length) return 'Scores are the means of the segments\u2019 scores';
    return 'Scores are sacreBLEU 2.6.0\u2019s (' + means.join(', ') + ': the mean of the segments\u2019 scores)';
  }

  // the segment's texts (laid out segment after segment in Python)
  function segText(i) {
    var t = T(), lay = t.text_layout, base = i * lay.per_segment, k = 0, out = { source: null, refs: [], hyps: [], toks: [], marks: [], extras: [] };
    var nx = (lay.extras || []).length;
    if (lay.source) out.source = t.texts.get(base + k++);
    for (var r = 0; r < lay.n_refs; r++) out.refs.push(t.texts.get(base + k++));
    for (var s = 0; s < lay.n_systems; s++) {
      out.hyps.push(t.texts.get(base + k++));
      if (lay.tokens) { out.toks.push(t.texts.get(base + k++)); out.marks.push(t.texts.get(base + k++)); }
      var xs = [];
      for (var x = 0; x < nx; x++) xs.push(t.texts.get(base + k++));
      out.extras.push(xs);
    }
    return out;
  }
  function hypText(i, s) {
    var t = T(), lay = t.text_layout;
    return t.texts.get(i * lay.per_segment + (lay.source ? 1 : 0) + lay.n_refs + s * ((lay.tokens ? 3 : 1) + (lay.extras || []).length));
  }
  function sentence(m, s) {
    var t = T(), arr = A[t.metrics[m].sentence_array], n = t.n_segments;
    return arr.subarray(s * n, (s + 1) * n);
  }

  // ------------------------------------------------------------------ layout
  function buildShell() {
    var nav = clear(document.getElementById('tabs'));
    VIEWS.forEach(function (v) {
      nav.appendChild(el('button', { type: 'button', role: 'tab', id: 'tab-' + v[0], 'data-view': v[0], 'aria-selected': 'false', text: tabLabel(v),
        onclick: function () { go(v[0]); } }));
    });
    if (D.sets.length > 1) {
      var sel = el('select', { id: 'set-select', 'aria-label': 'Test set', onchange: function () { chooseSet(+this.value); } });
      D.sets.forEach(function (t, i) { sel.appendChild(el('option', { value: i, text: visText(t.name, 80) })); });
      nav.appendChild(el('label', { class: 'set-choice' }, 'Test set ', sel));
    }
    var app = clear(document.getElementById('app'));
    VIEWS.forEach(function (v) { views[v[0]] = app.appendChild(el('section', { class: 'view', id: 'view-' + v[0], role: 'tabpanel' })); });
  }
  function tabLabel(v) {
    if (v[0] !== 'anatomy' || !D) return v[1];
    var k = metricWith('anatomy');
    return k < 0 ? v[1] : T().metrics[k].name + ' anatomy';
  }
  function chooseSet(i) {
    S.set = i; S.selected = -1; S.segFilter = null; defaultsForSet(); rendered = {}; go(S.view, true);
  }
  function defaultsForSet() {
    var t = T(), n = t.systems.length;
    S.a = t.baseline; S.b = n > 1 ? (t.baseline === 0 ? 1 : 0) : 0;
    // B: the best other system by the first metric
    var m = t.metrics[0], best = -1;
    for (var s = 0; s < n; s++) {
      if (s === S.a) continue;
      if (best < 0 || (m.higher_is_better ? m.corpus[s].score > m.corpus[best].score : m.corpus[s].score < m.corpus[best].score)) best = s;
    }
    if (best >= 0) S.b = best;
    S.cmpMetric = 0;
    S.bucketMetric = S.cmpMetric;
    S.anatomy = t.baseline;
    S.ovMetric = 0;
    order = null;
  }
  var rendered = {};
  function go(view, force) {
    if (!views[view]) view = 'overview';
    S.view = view;
    VIEWS.forEach(function (v) {
      views[v[0]].classList.toggle('active', v[0] === view);
      document.getElementById('tab-' + v[0]).setAttribute('aria-selected', v[0] === view ? 'true' : 'false');
    });
    if (force || !rendered[view]) { RENDER[view](clear(views[view])); rendered[view] = true; }
    if (('#' + view) !== location.hash) { try { history.replaceState(null, '', '#' + view); } catch (e) { /* a sandboxed frame */ } }
  }
  function invalidate() { var keep = S.view; rendered = {}; rendered[keep] = true; }

  function systemSelect(value, onchange, label, cls) {
    var sel = el('select', { 'aria-label': label, class: cls || null, onchange: function () { onchange(+this.value); } });
    T().systems.forEach(function (name, i) { sel.appendChild(el('option', { value: i, text: visText(name, 80) })); });
    sel.value = value;
    return sel;
  }
  function metricButtons(current, onpick, filter) {
    var box = el('span', { class: 'seg-buttons' });
    T().metrics.forEach(function (m, i) {
      if (filter && !filter(m)) return;
      box.appendChild(el('button', { type: 'button', class: 'btn' + (i === current ? ' on' : ''), text: m.name, onclick: function () { onpick(i); } }));
    });
    return box;
  }

  function notesOf(t) { return t.notes || []; }
  // the notebook's copy of a report leaves the segments out: say so, and how to see them
  function lightBanner(root) {
    if (!D.light) return;
    var text = typeof D.light === 'object' && D.light.note ? D.light.note
      : 'This copy of the report leaves out the segments (their text, sentence scores and n-grams). Save the whole report to a file to see them: report.save("report.html").';
    root.appendChild(el('p', { class: 'warn light-note' }, el('strong', { text: 'Segments left out. ' }), text));
  }

  // ------------------------------------------------------------------ overview
  var ovSort = { key: null, dir: -1 };
  // a metric's "prf" view: each system's precision, recall and F of each of its parts
  function renderPrf(root, m, k) {
    var t = T(), prf = m.prf, id = 'prf-' + k, head = el('tr', null, el('th', { class: 'l', text: 'System' }));
    root.appendChild(el('h2', { text: m.name + ': ' + prf.title }));
    prf.parts.forEach(function (part) { ['P', 'R', 'F'].forEach(function (x) { head.appendChild(el('th', { text: part + ' ' + x })); }); });
    var body = el('tbody');
    t.systems.forEach(function (name, s) {
      var tr = el('tr', null, el('td', { class: 'l' }, vis(name, 60)));
      prf.values[s].forEach(function (v) {
        [0, 1, 2].forEach(function (j) {
          tr.appendChild(el('td', { class: 'num prf-cell', title: fmt(v[j], 4) },
            el('span', { class: 'prf-bar' + (j === 2 ? ' prf-f' : ''), style: 'width:' + Math.max(0, Math.min(100, v[j])).toFixed(1) + '%' }), el('span', { class: 'prf-num', text: fmt(v[j], 2) })));
        });
      });
      body.appendChild(tr);
    });
    root.appendChild(el('div', { class: 'table-wrap' }, el('table', { class: 'data prf', id: id }, el('thead', null, head), body)));
    root.appendChild(exportBar(id, function () {
      var heads = ['System'];
      prf.parts.forEach(function (part) { heads.push(part + ' P', part + ' R', part + ' F'); });
      return { name: m.kind + '-prf', caption: t.name + ': ' + m.name + ', mean precision, recall and F of each system', head: heads,
        align: 'l' + 'r'.repeat(heads.length - 1),
        rows: t.systems.map(function (name, s) { var r = [cell(name)]; prf.values[s].forEach(function (v) { r.push(cell(fmt(v[0], 2), v[0]), cell(fmt(v[1], 2), v[1]), cell(fmt(v[2], 2), v[2])); }); return r; }) };
    }));
  }

  function renderOverview(root) {
    var t = T(), test = D.test, ms = t.metrics, n = t.systems.length;
    var what = test.type === 'bs' ? 'paired bootstrap resampling (' + int(test.n) + ' resamples)'
      : 'approximate randomization (' + int(test.n) + ' trials; intervals from ' + int(test.ci_resamples) + ' bootstrap resamples)';
    root.appendChild(el('h2', null, vis(t.name, 200)));
    notesOf(t).forEach(function (note) { root.appendChild(el('p', { class: 'warn note-tok' }, el('strong', { text: 'Check the tokenization. ' }), note)); });
    root.appendChild(el('p', { class: 'note' },
      plural(t.n_segments, 'segment') + ', ' + plural(t.n_refs, 'reference') + ', ' + plural(n, 'system') +
      (t.language_pair ? ', language pair ' + t.language_pair : '') +
      '. ' + scoresNote(ms) + '; \u00b1 is the half-width of the 95% bootstrap interval around its mean \u03bc' +
      (n > 1 ? '; p compares each system with the baseline by ' + what + ', seed ' + test.seed : ' (' + int(test.ci_resamples) + ' resamples, seed ' + test.seed + ')') + '.'));
    lightBanner(root);
    // the table
    var head = el('tr', null, el('th', { class: 'l sortable', text: 'System', onclick: function () { sortOv('name'); } }),
      el('th', { class: 'l', title: 'Systems that share a letter are not significantly different (Holm-adjusted p \u2265 ' + test.alpha + ')', text: 'Group' }));
    ms.forEach(function (m, k) {
      head.appendChild(el('th', { class: 'sortable', title: 'Sort by ' + m.name, onclick: function () { sortOv(k); } }, m.name, m.higher_is_better ? '' : ' \u2193', arrowFor(k)));
      head.appendChild(el('th', { text: '\u03bc \u00b1 95% CI' }));
      if (n > 1) head.appendChild(el('th', { text: 'p' }));
    });
    var rows = [];
    for (var s = 0; s < n; s++) rows.push(s);
    var key = ovSort.key === null ? 0 : ovSort.key;
    rows.sort(function (x, y) {
      if (key === 'name') return ovSort.dir * (t.systems[x] < t.systems[y] ? 1 : t.systems[x] > t.systems[y] ? -1 : 0);
      var m = ms[key], d = m.corpus[y].score - m.corpus[x].score;
      if (!m.higher_is_better) d = -d;
      return (ovSort.key === null ? 1 : -ovSort.dir) * d || x - y;
    });
    var body = el('tbody');
    rows.forEach(function (s) {
      var tr = el('tr', { 'data-system': s },
        el('td', { class: 'name', title: visText(t.systems[s]) }, vis(t.systems[s], 80), s === t.baseline ? el('span', { class: 'badge', text: 'baseline' }) : null),
        el('td', { class: 'l letters', text: ms[S.ovMetric].letters[s] }));
      ms.forEach(function (m) {
        var c = m.corpus[s];
        tr.appendChild(el('td', { class: 'score', text: fmt(c.score, digitsOf(m)) }));
        tr.appendChild(el('td', { class: 'muted', text: c.mean === null ? '\u2013' : fmt(c.mean, digitsOf(m)) + ' \u00b1 ' + fmt(c.ci, digitsOf(m)) }));
        if (n > 1) {
          // coloured by direction, as the matrix: green better than the baseline, red worse
          var sig = c.p !== null && c.p < test.alpha, base = m.corpus[t.baseline].score;
          var worse = m.higher_is_better ? c.score < base : c.score > base;
          tr.appendChild(el('td', { class: 'p ' + (c.p === null ? 'muted' : (!sig ? 'nsig' : worse ? 'sigw' : 'sig')),
            title: c.p === null ? 'baseline' : 'p = ' + c.p + (sig ? (worse ? ': significantly worse than the baseline' : ': significantly better than the baseline') : ''),
            text: c.p === null ? '\u2013' : fmtP(c.p) + (sig ? ' *' : '') }));
        }
      });
      body.appendChild(tr);
    });
    root.appendChild(el('div', { class: 'table-wrap' }, el('table', { class: 'data', id: 'overview-table' }, el('thead', null, head), body)));
    root.appendChild(el('p', { class: 'note small' }, n > 1 ? [
      '* p < ' + test.alpha + ' against the baseline: ', el('span', { class: 'sig', text: 'better' }), ' or ', el('span', { class: 'sigw', text: 'worse' }),
      ' (not adjusted; the matrix below adjusts every pair with Holm\u2019s method). Group letters use the metric chosen below. \u2193: lower is better.']
      : '\u2193: lower is better. With one system there is nothing to compare: no p-values.'));

    if (n > 1) {
      root.appendChild(el('h2', { text: 'Every pair of systems' }));
      if (t.resolution && t.resolution.smallest_adjusted >= test.alpha) {
        root.appendChild(el('p', { class: 'warn', id: 'resolution-warning' },
          el('strong', { text: 'No pair can be significant here. ' }),
          'With ' + int(test.n) + (test.type === 'bs' ? ' resamples' : ' trials') + ' the smallest p-value is 1/' + int(test.n + 1) +
          ', and Holm\u2019s correction over ' + int(t.resolution.pairs) + ' pairs multiplies it by up to ' + int(t.resolution.pairs) + ' (' + fmtP(t.resolution.smallest_adjusted) +
          ' \u2265 ' + test.alpha + '). Rebuild with at least ' + int(t.resolution.needed) + (test.type === 'bs' ? ' resamples' : ' trials') + ' (cybleu report --paired-n ' + t.resolution.needed + ', or n_samples=' + t.resolution.needed + ') to tell systems apart.'));
      }
      root.appendChild(el('div', { class: 'controls' }, el('label', null, 'Metric'), metricButtons(S.ovMetric, function (i) { S.ovMetric = i; RENDER.overview(clear(root)); })));
      renderMatrix(root, ms[S.ovMetric]);
      renderGroups(root, ms[S.ovMetric]);
    }
    ms.forEach(function (m, k) { if ((m.views || []).indexOf('prf') >= 0) renderPrf(root, m, k); });
    root.appendChild(el('h2', { text: 'Signatures' }));
    ms.forEach(function (m) { root.appendChild(el('pre', { class: 'sig-line', text: m.name + '|' + m.signature })); });
    root.appendChild(el('h2', { text: 'Copy the table' }));
    root.appendChild(el('p', { class: 'note small', text: 'Every table of the report has its own LaTeX and CSV export below it.' }));
    var row = el('div', { class: 'row' });
    [['LaTeX (booktabs)', t.latex, 'latex'], ['CSV', t.csv, 'csv']].forEach(function (x) {
      var ta = el('textarea', { class: 'copy', readonly: true, spellcheck: 'false', id: 'copy-' + x[2], 'aria-label': x[0] });
      ta.value = x[1];
      var status = el('span', { class: 'note small' });
      row.appendChild(el('div', { class: 'col' }, el('h3', null, x[0] + ' ', el('button', { type: 'button', class: 'btn', text: 'Copy', onclick: function () { copyText(ta, status); } }), ' ', status), ta));
    });
    root.appendChild(row);
  }
  function arrowFor(k) { return ovSort.key === k ? el('span', { class: 'arrow', text: ovSort.dir > 0 ? '\u25b2' : '\u25bc' }) : null; }
  function sortOv(k) { if (ovSort.key === k) ovSort.dir = -ovSort.dir; else { ovSort.key = k; ovSort.dir = k === 'name' ? -1 : -1; } RENDER.overview(clear(views.overview)); }
  function copyText(ta, status) {
    ta.focus(); ta.select();
    var done = function (ok) { status.textContent = ok ? 'copied' : 'selected: press Ctrl+C'; };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(ta.value).then(function () { done(true); }, function () { done(false); });
    else { var ok = false; try { ok = document.execCommand('copy'); } catch (e) { ok = false; } done(ok); }
  }
  // the class of a matrix cell: who is better, and how clearly
  function pairClass(p, better) {
    if (!(p < D.test.alpha)) return 'c-ns';
    return (better ? 'c-b' : 'c-w') + (p < 0.01 ? '2' : '1');
  }
  function renderMatrix(root, m) {
    var t = T(), order = m.rank, alpha = D.test.alpha;
    // the rotated names as tall as the longest needs (up to 40 characters), none cut short
    var longest = 0;
    order.forEach(function (s) { longest = Math.max(longest, visText(t.systems[s], 40).length); });
    var tall = Math.round(longest * 7.2 + 12);
    var head = el('tr', null, el('th', { class: 'l', text: '' }));
    order.forEach(function (s) { head.appendChild(el('th', { class: 'rot', style: 'height:' + tall + 'px', title: visText(t.systems[s]) }, el('div', { style: 'max-height:' + tall + 'px' }, vis(t.systems[s], 40)))); });
    var body = el('tbody');
    order.forEach(function (r) {
      var tr = el('tr', null, el('td', { class: 'name', title: visText(t.systems[r]) }, vis(t.systems[r], 40), ' ', el('span', { class: 'muted small', text: fmt(m.corpus[r].score, digitsOf(m)) })));
      order.forEach(function (c) {
        if (r === c) { tr.appendChild(el('td', { class: 'cell diag' })); return; }
        var p = m.holm_p[r][c], better = m.higher_is_better ? m.corpus[r].score > m.corpus[c].score : m.corpus[r].score < m.corpus[c].score;
        tr.appendChild(el('td', { class: 'cell ' + pairClass(p, better), title: visText(t.systems[r]) + ' vs ' + visText(t.systems[c]) + ': Holm-adjusted p = ' + p + ' (raw ' + m.raw_p[r][c] + ')', text: fmtP(p) }));
      });
      body.appendChild(tr);
    });
    root.appendChild(el('div', { class: 'table-wrap' }, el('table', { class: 'data matrix', id: 'pair-matrix' }, el('thead', null, head), body)));
    root.appendChild(el('div', { class: 'legend' },
      el('span', null, el('span', { class: 'sw c-b2' }), 'row better, p < 0.01'),
      el('span', null, el('span', { class: 'sw c-b1' }), 'row better, p < ' + alpha),
      el('span', null, el('span', { class: 'sw c-w1' }), 'row worse, p < ' + alpha),
      el('span', null, el('span', { class: 'sw c-w2' }), 'row worse, p < 0.01'),
      el('span', null, el('span', { class: 'sw c-ns' }), 'not significant'),
      el('span', { text: 'Cells: ' + m.name + ' p-values of every pair, adjusted with Holm\u2019s method over ' + (t.systems.length > 2 ? 'all ' + int(t.systems.length * (t.systems.length - 1) / 2) + ' pairs' : 'the one pair') + '; systems in order of score.' })));
    root.appendChild(exportBar('pair-matrix', function () {
      return { name: 'pairs-' + m.name, caption: t.name + ': ' + m.name + ', Holm-adjusted p-values of every pair (' + (D.test.type === 'bs' ? 'paired bootstrap, ' : 'approximate randomization, ') + D.test.n + ', seed ' + D.test.seed + ')',
        head: ['System', m.name].concat(order.map(function (s) { return t.systems[s]; })), align: 'lr' + 'c'.repeat(order.length),
        rows: order.map(function (r) {
          return [cell(t.systems[r]), cell(fmt(m.corpus[r].score, digitsOf(m)), m.corpus[r].score)].concat(order.map(function (c) {
            return r === c ? cell('', null) : cell(fmtP(m.holm_p[r][c]), m.holm_p[r][c]);
          }));
        }) };
    }));
  }
  function renderGroups(root, m) {
    var t = T();
    root.appendChild(el('h3', { text: 'Groups of systems not significantly different (' + m.name + ', Holm-adjusted p \u2265 ' + D.test.alpha + ')' }));
    var ul = el('ul', { class: 'groups' });
    m.groups.forEach(function (g, k) {
      var letter = k < 26 ? String.fromCharCode(97 + k) : 'g' + (k + 1);   // as Python names them
      ul.appendChild(el('li', null, el('span', { class: 'letters', text: letter + ': ' }),
        g.map(function (s, j) { return [j ? ', ' : '', vis(t.systems[s], 60), el('span', { class: 'muted small', text: ' ' + fmt(m.corpus[s].score, digitsOf(m)) })]; })));
    });
    root.appendChild(ul);
  }

  // ------------------------------------------------------------------ interpretation
  function renderInterpretation(root) {
    var t = T(), b = metricWith('bands');
    if (b < 0) {
      root.appendChild(el('h2', { text: 'What the scores mean, roughly' }));
      root.appendChild(el('p', { class: 'empty', text: 'No metric of this report has interpretation bands (a scale without agreed readings has none).' }));
      return;
    }
    var m = t.metrics[b], info = m.bands, bands = info.table;
    root.appendChild(el('h2', { text: info.title }));
    var row = el('div', { class: 'row' }), chartCol = el('div', { class: 'col', style: 'flex: 3 1 560px' });
    var caveat = el('div', { class: 'caveat' }, el('strong', { text: info.lead }), info.caveat);
    row.appendChild(chartCol);
    row.appendChild(el('div', { class: 'col', style: 'flex: 1 1 280px' }, caveat));
    root.appendChild(row);
    var W = chartWidth(860, chartCol), rowH = 22, n = t.systems.length;
    var maxScore = 0; m.corpus.forEach(function (c) { maxScore = Math.max(maxScore, c.score); });
    var xmax = Math.max(info.min_axis, Math.ceil((maxScore + 5) / 10) * 10);
    var left = 20, right = W - 20, x = function (v) { return left + (right - left) * Math.min(v, xmax) / xmax; };
    var order = m.rank.slice();
    var barY = 40, barH = 34, labelsY = barY + barH + 30;
    var H = labelsY + n * rowH + 20;
    var g = sv('svg', { class: 'chart', id: 'bands-chart', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'Each system\u2019s ' + info.of + ' on the interpretation bands' });
    var defs = sv('defs'), grad = sv('linearGradient', { id: 'band-grad', x1: '0', x2: '1', y1: '0', y2: '0' });
    info.stops.forEach(function (st) { grad.appendChild(sv('stop', { offset: Math.min(1, st[0] / xmax), 'stop-color': st[1] })); });
    defs.appendChild(grad); g.appendChild(defs);
    g.appendChild(sv('rect', { x: left, y: barY, width: right - left, height: barH, fill: 'url(#band-grad)', rx: 4 }));
    bands.forEach(function (bd) {
      if (bd[0] >= xmax) return;
      g.appendChild(sv('line', { x1: x(bd[0]), x2: x(bd[0]), y1: barY - 6, y2: barY + barH, class: 'band-edge', 'stroke-width': 2 }));
      g.appendChild(sv('text', { x: x(bd[0]) + 2, y: barY - 10, 'font-size': 11, class: 'ax', text: bd[0] }));
      var mid = (x(bd[0]) + x(Math.min(bd[1], xmax))) / 2, label = bd[3];
      // a band's word only where it fits in the band
      if (x(Math.min(bd[1], xmax)) - x(bd[0]) >= label.length * 6.6 + 4) {
        g.appendChild(sv('text', { x: mid, y: barY + barH / 2 + 4, 'text-anchor': 'middle', 'font-size': 11, fill: '#fff', 'font-weight': 600, text: label }));
      }
    });
    order.forEach(function (s, k) {
      var c = m.corpus[s], cx = x(c.score), y = labelsY + k * rowH;
      g.appendChild(sv('line', { x1: cx, x2: cx, y1: barY + barH, y2: y - 4, class: s === t.baseline ? 'mark-base' : 'mark', 'stroke-width': 1, 'stroke-dasharray': '2,2' }));
      g.appendChild(sv('circle', { cx: cx, cy: y - 4, r: 4, class: s === t.baseline ? 'dot-base' : 'dot' }));
      var label = sv('text', { x: cx + (cx > W * 0.7 ? -8 : 8), y: y, 'text-anchor': cx > W * 0.7 ? 'end' : 'start', 'font-size': 12, class: 'lbl' });
      label.textContent = visText(t.systems[s], 60) + '  ' + c.score.toFixed(2);
      g.appendChild(label);
    });
    chartCol.appendChild(g);
    var tbl = el('table', { class: 'data' }, el('thead', null, el('tr', null, el('th', { class: 'l', text: 'Band (' + info.of + ')' }), el('th', { class: 'l', text: 'Rough reading' }), el('th', { class: 'l', text: 'Systems' }))));
    var body = el('tbody');
    bands.forEach(function (bd, k) {
      var names = order.filter(function (s) { return info.system_band[s] === k; }).map(function (s) { return t.systems[s]; });
      body.appendChild(el('tr', null, el('td', { class: 'l', text: bd[0] + (k === bands.length - 1 ? '+' : '\u2013' + (bd[1] - 1)) }), el('td', { class: 'l wrap', text: bd[2] }), el('td', { class: 'l wrap', text: names.length ? names.map(function (x) { return visText(x, 60); }).join(', ') : '\u2013' })));
    });
    tbl.appendChild(body);
    root.appendChild(el('h3', { text: 'The bands' }));
    root.appendChild(el('div', { class: 'table-wrap' }, tbl));
  }

  // ------------------------------------------------------------------ anatomy
  function renderAnatomy(root) {
    var t = T(), b = metricWith('anatomy');
    if (b < 0) {
      root.appendChild(el('h2', { text: 'Anatomy of a score' }));
      root.appendChild(el('p', { class: 'empty', text: 'No metric of this report shows the parts of its score.' }));
      return;
    }
    var m = t.metrics[b], s = S.anatomy, an = m.anatomy[s];
    root.appendChild(el('h2', { text: m.name + '\u2019s anatomy' }));
    root.appendChild(el('div', { class: 'controls' }, el('label', null, 'System ', systemSelect(s, function (v) { S.anatomy = v; RENDER.anatomy(clear(root)); }, 'System'))));
    var N = an.precisions.length;
    var logs = an.precisions.map(function (p) { return 'log ' + p.toFixed(2); }).join(' + ');
    root.appendChild(el('div', { class: 'anatomy-formula', id: 'anatomy-formula', text:
      m.name + ' = BP \u00d7 exp((' + logs + ') / ' + N + ')\n     = ' + an.bp.toFixed(4) + ' \u00d7 ' + (an.geo_mean === null ? '0' : an.geo_mean.toFixed(4)) + ' = ' + an.score.toFixed(4) +
      '\nBP = exp(1 \u2212 r/c) when c < r, else 1: c = hyp_len = ' + int(an.sys_len) + ', r = ref_len = ' + int(an.ref_len) + ', c/r = ' + an.ratio.toFixed(4) }));
    var row = el('div', { class: 'row' });
    var left = el('div', { class: 'col' }, el('h3', { text: 'Clipped n-gram precisions (matches / n-grams)' }));
    var right = el('div', { class: 'col' }, el('h3', { text: 'Brevity penalty' }));
    row.appendChild(left); row.appendChild(right);
    root.appendChild(row);
    left.appendChild(precisionBars(an, left)); right.appendChild(bpCurve(an, right, m.anatomy_curve));
    root.appendChild(el('h3', { text: 'Every system' }));
    var head = el('tr', null, el('th', { class: 'l', text: 'System' }), el('th', { text: m.name }));
    for (var k = 1; k <= N; k++) head.appendChild(el('th', { text: k + '-gram %' }));
    ['BP', 'ratio', 'hyp_len', 'ref_len'].forEach(function (x) { head.appendChild(el('th', { text: x })); });
    var body = el('tbody');
    m.rank.forEach(function (q) {
      var a = m.anatomy[q];
      var tr = el('tr', { class: q === s ? 'selected' : null, onclick: function () { S.anatomy = q; RENDER.anatomy(clear(root)); } },
        el('td', { class: 'name', title: visText(t.systems[q]) }, vis(t.systems[q], 60)), el('td', { text: fmt(a.score) }));
      a.precisions.forEach(function (p, k) { tr.appendChild(el('td', { title: int(a.counts[k]) + ' / ' + int(a.totals[k]), text: p.toFixed(1) })); });
      tr.appendChild(el('td', { text: a.bp.toFixed(3) }));
      tr.appendChild(el('td', { text: a.ratio.toFixed(3) }));
      tr.appendChild(el('td', { text: int(a.sys_len) }));
      tr.appendChild(el('td', { text: int(a.ref_len) }));
      body.appendChild(tr);
    });
    root.appendChild(el('div', { class: 'table-wrap' }, el('table', { class: 'data', id: 'anatomy-table' }, el('thead', null, head), body)));
    root.appendChild(exportBar('anatomy-table', function () {
      var heads = ['System', m.name];
      for (var k = 1; k <= N; k++) heads.push(k + '-gram %');
      return { name: m.kind + '-anatomy', caption: t.name + ': ' + m.name + ', its clipped n-gram precisions, brevity penalty and lengths', head: heads.concat(['BP', 'ratio', 'hyp_len', 'ref_len']),
        align: 'l' + 'r'.repeat(heads.length + 3), rows: m.rank.map(function (q) {
          var a = m.anatomy[q];
          return [cell(t.systems[q]), cell(fmt(a.score), a.score)].concat(a.precisions.map(function (p) { return cell(p.toFixed(1), p); }),
            [cell(a.bp.toFixed(3), a.bp), cell(a.ratio.toFixed(3), a.ratio), cell(int(a.sys_len), a.sys_len), cell(int(a.ref_len), a.ref_len)]);
        }) };
    }));
    root.appendChild(el('p', { class: 'note small', text: 'sacreBLEU prints these as \u201c' + an.verbose + '\u201d.' }));
  }
  function precisionBars(an, box) {
    var W = chartWidth(460, box), H = 250, L = 48, R = 16, TOP = 16, B = 40, N = an.precisions.length;
    var g = sv('svg', { class: 'chart', id: 'precision-bars', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'n-gram precisions' });
    var y = function (v) { return TOP + (H - TOP - B) * (1 - v / 100); };
    for (var v = 0; v <= 100; v += 25) {
      g.appendChild(sv('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
      g.appendChild(sv('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 11, class: 'ax', text: v + '%' }));
    }
    var bw = (W - L - R) / N;
    an.precisions.forEach(function (p, k) {
      var x0 = L + k * bw + bw * 0.18, w = bw * 0.64;
      g.appendChild(sv('rect', { x: x0, y: y(p), width: w, height: Math.max(0, y(0) - y(p)), fill: ['#0969da', '#218bff', '#54aeff', '#80ccff'][k % 4], rx: 2 },
        sv('title', { text: k + 1 + '-grams: ' + int(an.counts[k]) + ' of ' + int(an.totals[k]) + ' match (' + p.toFixed(2) + '%)' })));
      g.appendChild(sv('text', { x: x0 + w / 2, y: y(p) - 5, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 600, class: 'lbl', text: p.toFixed(1) + '%' }));
      g.appendChild(sv('text', { x: x0 + w / 2, y: H - B + 16, 'text-anchor': 'middle', 'font-size': 12, class: 'lbl', text: (k + 1) + '-gram' }));
      g.appendChild(sv('text', { x: x0 + w / 2, y: H - B + 31, 'text-anchor': 'middle', 'font-size': bw < 90 ? 10 : 11, class: 'ax', text: int(an.counts[k]) + ' / ' + int(an.totals[k]) }));
    });
    g.appendChild(sv('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), class: 'axis-line' }));
    return g;
  }
  function bpCurve(an, box, pts) {
    var W = chartWidth(460, box), H = 250, L = 48, R = 18, TOP = 16, B = 40;
    var lo = pts[0][0], hi = pts[pts.length - 1][0];
    var x = function (v) { return L + (W - L - R) * (v - lo) / (hi - lo); };
    var y = function (v) { return TOP + (H - TOP - B) * (1 - v); };
    var g = sv('svg', { class: 'chart', id: 'bp-curve', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'brevity penalty curve' });
    for (var v = 0; v <= 1.0001; v += 0.25) {
      g.appendChild(sv('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
      g.appendChild(sv('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 11, class: 'ax', text: v.toFixed(2) }));
    }
    for (var r = Math.ceil(lo * 10) / 10; r <= hi + 1e-9; r += 0.1) {
      g.appendChild(sv('text', { x: x(r), y: H - B + 16, 'text-anchor': 'middle', 'font-size': 11, class: 'ax', text: r.toFixed(1) }));
    }
    g.appendChild(sv('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 12, class: 'lbl', text: W < 400 ? 'c / r (hypothesis / reference length)' : 'c / r  (hypothesis length / reference length)' }));
    g.appendChild(sv('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), class: 'axis-line' }));
    var d = pts.map(function (p, i) { return (i ? 'L' : 'M') + x(p[0]).toFixed(1) + ',' + y(p[1]).toFixed(1); }).join('');
    g.appendChild(sv('path', { d: d, fill: 'none', class: 'curve', 'stroke-width': 2 }));
    var rx = Math.min(Math.max(an.ratio, lo), hi);
    g.appendChild(sv('line', { x1: x(rx), x2: x(rx), y1: y(0), y2: y(an.bp), class: 'mark-a', 'stroke-dasharray': '3,3' }));
    g.appendChild(sv('circle', { cx: x(rx), cy: y(an.bp), r: 5, class: 'dot-a' }, sv('title', { text: 'c/r = ' + an.ratio.toFixed(4) + ', BP = ' + an.bp.toFixed(4) })));
    var lab = sv('text', { x: x(rx) + (x(rx) > W * 0.65 ? -8 : 8), y: y(an.bp) + (an.bp > 0.9 ? 18 : -8), 'text-anchor': x(rx) > W * 0.65 ? 'end' : 'start', 'font-size': 12, 'font-weight': 600, class: 'lbl-a' });
    lab.textContent = 'c/r = ' + an.ratio.toFixed(3) + ', BP = ' + an.bp.toFixed(3) + (an.ratio > hi || an.ratio < lo ? ' (off the chart)' : '');
    g.appendChild(lab);
    return g;
  }

  // ------------------------------------------------------------------ two systems
  var order = null, orderKey = '', cmpRoot = null, vtState = null;
  function cmpMetric() { return T().metrics[S.cmpMetric]; }
  function deltaOf(i, sa, sb) { return sb[i] - sa[i]; }
  function computeOrder() {
    var t0 = performance.now();
    var t = T(), n = t.n_segments, sa = sentence(S.cmpMetric, S.a), sb = sentence(S.cmpMetric, S.b), rl = A[t.ref_len];
    var q = S.q.trim().toLowerCase(), lo = S.lo === '' ? -Infinity : +S.lo, hi = S.hi === '' ? Infinity : +S.hi;
    if (isNaN(lo)) lo = -Infinity; if (isNaN(hi)) hi = Infinity;
    var rangeVal = { delta: function (i) { return sb[i] - sa[i]; }, a: function (i) { return sa[i]; }, b: function (i) { return sb[i]; }, len: function (i) { return rl[i]; } }[S.rangeOn];
    var out = new Uint32Array(n), k = 0;
    var ranged = lo !== -Infinity || hi !== Infinity;
    // an n-gram's segments (from the n-grams view) limit the rows to those
    var only = segFilterFor(S.a, S.b), count = only ? only.segs.length : n;
    for (var j0 = 0; j0 < count; j0++) {
      var i = only ? only.segs[j0] : j0;
      if (ranged) { var v = rangeVal(i); if (!(v >= lo && v <= hi)) continue; }
      if (q && !matches(i, q)) continue;
      out[k++] = i;
    }
    out = out.subarray(0, k);
    var key = S.sort.key, dir = S.sort.dir, kv;
    if (key === 'idx') kv = null;
    else {
      kv = new Float64Array(n);
      for (var j = 0; j < k; j++) { var x = out[j]; kv[x] = key === 'delta' ? sb[x] - sa[x] : key === 'a' ? sa[x] : key === 'b' ? sb[x] : rl[x]; }
    }
    if (kv) out.sort(function (x, y) { return dir * (kv[x] - kv[y]) || x - y; });
    else if (dir < 0) out.reverse();
    order = out;
    timings.lastOrder = performance.now() - t0;
    return out;
  }
  var lowerCache = {};
  function lowered(kind, s) {
    var key = S.set + ':' + kind + ':' + s;
    if (!lowerCache[key]) {
      var t = T(), n = t.n_segments, arr = new Array(n);
      for (var i = 0; i < n; i++) {
        var v = kind === 'h' ? hypText(i, s) : segTextField(i, kind, s);
        arr[i] = v === null || v === undefined ? '' : String(v).toLowerCase();
      }
      lowerCache[key] = arr;
    }
    return lowerCache[key];
  }
  function segTextField(i, kind, k) {
    var t = T(), lay = t.text_layout, base = i * lay.per_segment;
    if (kind === 's') return lay.source ? t.texts.get(base) : '';
    return t.texts.get(base + (lay.source ? 1 : 0) + k);
  }
  function matches(i, q) {
    var t = T();
    if (lowered('h', S.a)[i].indexOf(q) >= 0 || lowered('h', S.b)[i].indexOf(q) >= 0) return true;
    for (var r = 0; r < t.n_refs; r++) if (lowered('r', r)[i].indexOf(q) >= 0) return true;
    if (t.has_source && lowered('s', 0)[i].indexOf(q) >= 0) return true;
    return String(i + 1) === q;
  }

  function lightNote(root) { lightBanner(root); }
  // the segments an n-gram's click chose, while the pair of systems is the same
  function segFilterFor(a, b) {
    var f = S.segFilter;
    if (!f || f.set !== S.set) return null;
    return (f.a === a && f.b === b) || (f.a === b && f.b === a) ? f : null;
  }
  // the segments' text: its own compressed element, unpacked when first needed
  var textsPromise = null;
  function loadTexts() {
    if (textsPromise) return textsPromise;
    var node = document.getElementById('cybleu-text');
    if (!node) { textsPromise = Promise.resolve(false); return textsPromise; }
    var bytes = b64bytes(node.textContent);
    var got = node.getAttribute('data-encoding') === 'gzip' ? gunzip(bytes) : Promise.resolve(bytes);
    textsPromise = got.then(function (raw) {
      var pk = unpack(raw), dec = new TextDecoder('utf-8');
      D.sets.forEach(function (t, k) { t.texts = textList(dec.decode(pk.arrays['s' + k]), pk.arrays['o' + k], pk.header.sets[k].nulls); });
      timings.textsReady = performance.now();
      warmSearch();
      return true;
    });
    textsPromise.catch(fail);
    return textsPromise;
  }
  function textsReady() { var t = T(); return !!t.texts; }
  // all of a test set's strings in one, with each one's length (UTF-16 units): cut on demand
  function textList(all, lengths, nulls) {
    var none = {}, n = lengths.length, start = new Float64Array(n + 1);
    for (var i = 0; i < n; i++) start[i + 1] = start[i] + lengths[i];
    nulls.forEach(function (i) { none[i] = true; });
    return { get: function (i) { return none[i] ? null : all.substring(start[i], start[i + 1]); } };
  }
  // the lower-cased texts the search reads, made while the page is idle
  function warmSearch() {
    if (!textsReady() || !T().text_layout) return;
    var t = T(), jobs = [['h', S.a], ['h', S.b]];
    for (var r = 0; r < t.n_refs; r++) jobs.push(['r', r]);
    if (t.has_source) jobs.push(['s', 0]);
    var step = function () { var j = jobs.shift(); if (!j) return; lowered(j[0], j[1]); setTimeout(step, 0); };
    setTimeout(step, 0);
  }
  function renderCompare(root) {
    cmpRoot = root;
    var t = T();
    root.appendChild(el('h2', { text: 'Two systems, segment by segment' }));
    if (!t.text_layout) { lightNote(root); return; }
    if (!textsReady()) {
      root.appendChild(el('p', { class: 'note', id: 'texts-loading', text: 'Unpacking the segments\u2026' }));
      loadTexts().then(function () { rendered.compare = false; if (S.view === 'compare') go('compare', true); });
      return;
    }
    if (t.systems.length < 2) {
      root.appendChild(el('p', { class: 'empty', id: 'one-system', text: 'The report has one system: there is no second one to compare it with. The Overview, ' + tabLabel(['anatomy', 'Anatomy']) + ' and Buckets views show its scores.' }));
      return;
    }
    var bar = el('div', { class: 'controls' },
      el('label', null, el('span', { class: 'tag-a', text: 'A' }), systemSelect(S.a, function (v) { S.a = v; S.selected = S.selected; order = null; RENDER.compare(clear(root)); invalidate(); }, 'System A', 'sel-a')),
      el('label', null, el('span', { class: 'tag-b', text: 'B' }), systemSelect(S.b, function (v) { S.b = v; order = null; RENDER.compare(clear(root)); invalidate(); }, 'System B', 'sel-b')),
      el('button', { type: 'button', class: 'btn', text: 'swap', title: 'Swap A and B', onclick: function () { var x = S.a; S.a = S.b; S.b = x; order = null; RENDER.compare(clear(root)); invalidate(); } }),
      el('label', null, 'Sentence score'), metricButtons(S.cmpMetric, function (i) { S.cmpMetric = i; order = null; RENDER.compare(clear(root)); invalidate(); }));
    root.appendChild(bar);
    root.appendChild(el('div', { id: 'cmp-summary' }));
    var charts = el('div', { class: 'row' });
    charts.appendChild(el('div', { class: 'col' }, el('h3', { id: 'hist-title' }), el('div', { id: 'cmp-hist' })));
    charts.appendChild(el('div', { class: 'col' }, el('h3', { id: 'scatter-title' }), el('canvas', { class: 'scatter', id: 'cmp-scatter', width: 600, height: 260, 'aria-label': 'difference against reference length' })));
    root.appendChild(charts);
    var q = el('input', { type: 'search', id: 'seg-search', placeholder: 'search source, references, A and B', 'aria-label': 'Search the segments', value: S.q });
    var lo = el('input', { type: 'number', id: 'range-lo', step: 'any', placeholder: 'min', 'aria-label': 'Minimum', value: S.lo });
    var hi = el('input', { type: 'number', id: 'range-hi', step: 'any', placeholder: 'max', 'aria-label': 'Maximum', value: S.hi });
    var on = el('select', { id: 'range-on', 'aria-label': 'Range applies to' },
      el('option', { value: 'delta', text: '\u0394 (B \u2212 A)' }), el('option', { value: 'a', text: 'score A' }), el('option', { value: 'b', text: 'score B' }), el('option', { value: 'len', text: 'reference length' }));
    on.value = S.rangeOn;
    var apply = debounce(function () { S.q = q.value; S.lo = lo.value; S.hi = hi.value; S.rangeOn = on.value; refreshRows(); }, 120);
    q.addEventListener('input', apply); lo.addEventListener('input', apply); hi.addEventListener('input', apply); on.addEventListener('change', apply);
    var only = segFilterFor(S.a, S.b);
    root.appendChild(el('div', { class: 'controls' }, el('label', null, 'Filter ', q), el('label', null, 'range of ', on, ' from ', lo, ' to ', hi),
      el('button', { type: 'button', class: 'btn', text: 'clear', onclick: function () { q.value = lo.value = hi.value = ''; S.q = S.lo = S.hi = ''; S.segFilter = null; RENDER.compare(clear(root)); } }),
      only ? el('span', { class: 'chip', id: 'seg-filter' }, 'n-gram \u201c', vis(only.label, 60), '\u201d: ' + plural(only.segs.length, 'segment') + ' where A and B match it differently ',
        el('button', { type: 'button', class: 'chip-x', title: 'Show every segment', 'aria-label': 'Show every segment', text: '\u00d7', onclick: function () { S.segFilter = null; RENDER.compare(clear(root)); } })) : null,
      el('span', { class: 'note', id: 'row-count' })));
    var head = el('div', { class: 'vt-head', role: 'row' });
    [['idx', '#', 'num'], ['len', 'ref len', 'num'], ['a', 'A', 'num'], ['b', 'B', 'num'], ['delta', '\u0394', 'num'], [null, 'hypothesis A', ''], [null, 'hypothesis B', '']].forEach(function (c) {
      var cell = el('div', { class: c[2], role: 'columnheader', 'data-key': c[0] || '', title: c[0] ? 'Sort' : null }, c[1], c[0] && S.sort.key === c[0] ? el('span', { class: 'arrow', text: S.sort.dir > 0 ? ' \u25b2' : ' \u25bc' }) : null);
      if (c[0]) cell.addEventListener('click', function () { sortBy(c[0]); });
      head.appendChild(cell);
    });
    var vt = el('div', { class: 'vt', id: 'seg-table', tabindex: '0', role: 'grid', 'aria-label': 'Segments' }, head, el('div', { class: 'vt-body' }));
    vt.addEventListener('scroll', function () { if (!vtState.pending) { vtState.pending = true; requestAnimationFrame(function () { vtState.pending = false; drawRows(); }); } });
    vt.addEventListener('keydown', function (e) {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
      e.preventDefault();
      var at = order ? Array.prototype.indexOf.call(order, S.selected) : -1;
      at = Math.max(0, Math.min(order.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
      if (order.length) { select(order[at]); scrollToRow(at); }
    });
    root.appendChild(vt);
    root.appendChild(exportBar('segments', segmentsModel, ['csv', 'tsv']));
    root.appendChild(el('div', { class: 'detail panel', id: 'seg-detail' }, el('p', { class: 'note', text: 'Select a segment to see its source, references and both hypotheses, with each token coloured by the longest reference n-gram it is part of.' })));
    vtState = { root: vt, body: vt.querySelector('.vt-body'), rowH: 28, pending: false, pool: [] };
    refreshCompare();
  }
  // the rows of the table as they are filtered and sorted, every text in full
  function segmentsModel() {
    var t = T(), m = cmpMetric(), sa = sentence(S.cmpMetric, S.a), sb = sentence(S.cmpMetric, S.b), rl = A[t.ref_len];
    var nameA = t.systems[S.a], nameB = t.systems[S.b];
    var head = ['segment', 'ref_len', m.name + ' A: ' + nameA, m.name + ' B: ' + nameB, 'delta (B - A)'];
    if (t.has_source) head.push('source');
    for (var r = 0; r < t.n_refs; r++) head.push(t.n_refs > 1 ? 'reference ' + (r + 1) : 'reference');
    head.push('hypothesis A: ' + nameA, 'hypothesis B: ' + nameB);
    var rows = [], ord = order || computeOrder();
    for (var k = 0; k < ord.length; k++) {
      var i = ord[k], st = segText(i), row = [cell(i + 1), cell(rl[i]), cell(sa[i]), cell(sb[i]), cell(sb[i] - sa[i])];
      if (t.has_source) row.push(cell(st.source));
      st.refs.forEach(function (x) { row.push(cell(x)); });
      row.push(cell(st.hyps[S.a]), cell(st.hyps[S.b]));
      rows.push(row);
    }
    return { name: 'segments', caption: t.name + ': segments', head: head, align: '', rows: rows };
  }
  // the smallest 1, 2 or 5 times a power of ten at least x (a chart's range for small scales)
  function niceUp(x) { if (!(x > 0)) return 1; var p = Math.pow(10, Math.floor(Math.log10(x))), f = x / p; return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p; }
  function niceStep(x) { var p = Math.pow(10, Math.floor(Math.log10(Math.max(x, 1e-9)))), f = x / p; return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p; }
  function debounce(f, ms) { var h = null; return function () { clearTimeout(h); h = setTimeout(f, ms); }; }
  function sortBy(key) {
    if (S.sort.key === key) S.sort.dir = -S.sort.dir; else { S.sort.key = key; S.sort.dir = key === 'idx' || key === 'len' ? 1 : -1; }
    var t0 = performance.now();
    computeOrder(); drawRows(true); updateHeadArrows();
    timings.lastSort = performance.now() - t0;
    timings.sorts = (timings.sorts || 0) + 1;
  }
  function updateHeadArrows() {
    Array.prototype.forEach.call(document.querySelectorAll('#seg-table .vt-head > div'), function (cell) {
      var a = cell.querySelector('.arrow'); if (a) a.remove();
      if (cell.getAttribute('data-key') === S.sort.key) cell.appendChild(el('span', { class: 'arrow', text: S.sort.dir > 0 ? ' \u25b2' : ' \u25bc' }));
    });
  }
  function refreshRows() {
    var t0 = performance.now();
    computeOrder(); drawRows(true); drawCharts();
    timings.lastFilter = performance.now() - t0;
    timings.filters = (timings.filters || 0) + 1;
  }
  function refreshCompare() {
    warmSearch();
    computeOrder(); summary(); drawRows(true); drawCharts();
    if (S.selected >= 0) showDetail(S.selected);
  }
  function summary() {
    var t = T(), m = cmpMetric(), box = clear(document.getElementById('cmp-summary'));
    if (t.systems.length < 2) return;
    var a = m.corpus[S.a].score, b = m.corpus[S.b].score, p = S.a === S.b ? null : m.raw_p[S.a][S.b], ph = S.a === S.b ? null : m.holm_p[S.a][S.b];
    var d = b - a;
    box.appendChild(el('div', { class: 'summary-line' },
      el('span', null, el('span', { class: 'tag-a', text: 'A ' }), vis(t.systems[S.a], 50), ' ', el('span', { class: 'big', text: fmt(a, digitsOf(m)) })),
      el('span', null, el('span', { class: 'tag-b', text: 'B ' }), vis(t.systems[S.b], 50), ' ', el('span', { class: 'big', text: fmt(b, digitsOf(m)) })),
      el('span', null, 'corpus \u0394 ', el('span', { class: 'big ' + (d === 0 ? '' : ((d > 0) === m.higher_is_better ? 'pos' : 'neg')), text: fmtSigned(d, digitsOf(m)) })),
      el('span', { class: 'note' }, m.name + (m.higher_is_better ? '' : ' (lower is better)') + '; p = ' + fmtP(p) + ', Holm-adjusted ' + fmtP(ph) + (S.a === S.b ? ' (the same system)' : ''))));
  }
  function drawRows(reset) {
    var st = vtState; if (!st || !order) return;
    var n = order.length, h = st.rowH, body = st.body;
    body.style.height = (n * h) + 'px';
    var top = Math.max(0, st.root.scrollTop - 30), view = st.root.clientHeight || 420;
    var first = Math.max(0, Math.floor(top / h) - 5), last = Math.min(n, Math.ceil((top + view) / h) + 5);
    var need = last - first, pool = st.pool;
    while (pool.length < need) {
      var row = el('div', { class: 'vt-row', role: 'row' }, el('div', { class: 'num' }), el('div', { class: 'num' }), el('div', { class: 'num' }), el('div', { class: 'num' }), el('div', { class: 'num' }), el('div'), el('div'));
      row.addEventListener('click', onRowClick);
      body.appendChild(row); pool.push(row);
    }
    var t = T(), sa = sentence(S.cmpMetric, S.a), sb = sentence(S.cmpMetric, S.b), rl = A[t.ref_len], better = cmpMetric().higher_is_better, sd = Math.max(1, digitsOf(cmpMetric()) - 1);
    for (var k = 0; k < pool.length; k++) {
      var r = pool[k];
      if (k >= need) { r.style.display = 'none'; continue; }
      var pos = first + k, i = order[pos];
      r.style.display = ''; r.style.top = (pos * h) + 'px';
      if (!reset && r._seg === i) { r.classList.toggle('selected', i === S.selected); continue; }
      r._seg = i; r.setAttribute('data-seg', i);
      r.classList.toggle('selected', i === S.selected);
      var c = r.children, d = sb[i] - sa[i];
      c[0].textContent = i + 1; c[1].textContent = rl[i]; c[2].textContent = sa[i].toFixed(sd); c[3].textContent = sb[i].toFixed(sd);
      c[4].textContent = fmtSigned(d, sd); c[4].className = 'num ' + (d === 0 ? '' : ((d > 0) === better ? 'pos' : 'neg'));
      c[5].textContent = ''; c[5].appendChild(vis(hypText(i, S.a), 300)); c[5].title = '';
      c[6].textContent = ''; c[6].appendChild(vis(hypText(i, S.b), 300));
    }
    var count = document.getElementById('row-count');
    if (count) count.textContent = int(n) + ' of ' + plural(t.n_segments, 'segment');
  }
  function onRowClick() { select(this._seg); }
  function scrollToRow(pos) {
    var st = vtState, h = st.rowH, top = pos * h, view = st.root.clientHeight - 30;
    if (top < st.root.scrollTop) st.root.scrollTop = top;
    else if (top + h > st.root.scrollTop + view) st.root.scrollTop = top + h - view;
    drawRows();
  }
  function select(i) {
    S.selected = i;
    drawRows();
    showDetail(i);
    drawCharts();
  }
  function drawCharts() {
    if (!order) return;
    var t = T(), m = cmpMetric(), sa = sentence(S.cmpMetric, S.a), sb = sentence(S.cmpMetric, S.b), rl = A[t.ref_len];
    var n = order.length, maxAbs = 0, better = 0, worse = 0, same = 0, maxLen = 1;
    for (var k = 0; k < n; k++) { var i = order[k], d = sb[i] - sa[i]; if (Math.abs(d) > maxAbs) maxAbs = Math.abs(d); if (d === 0) same++; else if ((d > 0) === m.higher_is_better) better++; else worse++; if (rl[i] > maxLen) maxLen = rl[i]; }
    var R = digitsOf(m) > 2 ? niceUp(maxAbs) : Math.max(10, Math.ceil(maxAbs / 10 - 1e-9) * 10), ad = R >= 5 ? 0 : R >= 0.5 ? 1 : 2, bins = 40, w = 2 * R / bins, counts = new Array(bins).fill(0);
    for (k = 0; k < n; k++) { var x = sb[order[k]] - sa[order[k]]; if (x === 0) continue; var bi = Math.min(bins - 1, Math.max(0, Math.floor((x + R) / w))); counts[bi]++; }
    document.getElementById('hist-title').textContent = 'Sentence ' + m.name + ': B \u2212 A per segment (' + int(better) + ' better in B, ' + int(worse) + ' worse, ' + int(same) + ' equal)';
    var hist = clear(document.getElementById('cmp-hist'));
    var W = chartWidth(600, hist), H = 260, L = 44, Rm = 22, TOP = 10, B = 34, maxC = Math.max(1, Math.max.apply(null, counts.concat([same])));
    var g = sv('svg', { class: 'chart', id: 'delta-hist', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'histogram of differences' });
    var xs = function (v) { return L + (W - L - Rm) * (v + R) / (2 * R); }, ys = function (c) { return TOP + (H - TOP - B) * (1 - c / maxC); };
    var step = Math.max(1, niceStep(maxC / 4)); maxC = Math.ceil(maxC / step) * step;   // counts: whole steps
    for (var gy = 0; gy * step <= maxC; gy++) {
      var cv = gy * step;
      g.appendChild(sv('line', { x1: L, x2: W - Rm, y1: ys(cv), y2: ys(cv), class: 'grid' }));
      g.appendChild(sv('text', { x: L - 6, y: ys(cv) + 4, 'text-anchor': 'end', 'font-size': 11, class: 'ax', text: int(cv) }));
    }
    counts.forEach(function (c, b) {
      if (!c) return;
      var x0 = -R + b * w, good = (x0 + w / 2 > 0) === m.higher_is_better;
      g.appendChild(sv('rect', { x: xs(x0) + 0.5, y: ys(c), width: Math.max(1, xs(x0 + w) - xs(x0) - 1), height: ys(0) - ys(c), class: good ? 'bar-good' : 'bar-bad' },
        sv('title', { text: '[' + x0.toFixed(ad + 1) + ', ' + (x0 + w).toFixed(ad + 1) + '): ' + c + ' segments' })));
    });
    if (same) g.appendChild(sv('rect', { x: xs(0) - 2, y: ys(same), width: 4, height: ys(0) - ys(same), class: 'bar-same' }, sv('title', { text: 'equal: ' + same + ' segments' })));
    g.appendChild(sv('line', { x1: L, x2: W - Rm, y1: ys(0), y2: ys(0), class: 'axis-line' }));
    [-R, -R / 2, 0, R / 2, R].forEach(function (v) { g.appendChild(sv('text', { x: xs(v), y: H - B + 16, 'text-anchor': 'middle', 'font-size': 11, class: 'ax', text: fmtSigned(v, ad) })); });
    g.appendChild(sv('text', { x: (L + W) / 2, y: H - 4, 'text-anchor': 'middle', 'font-size': 12, class: 'lbl', text: '\u0394 sentence ' + m.name + (W < 420 ? ' (grey: equal)' : ' (grey bar at 0: equal scores)') }));
    if (S.selected >= 0) { var ds = sb[S.selected] - sa[S.selected]; g.appendChild(sv('line', { x1: xs(ds), x2: xs(ds), y1: TOP, y2: ys(0), class: 'mark-sel', 'stroke-dasharray': '3,2' })); }
    hist.appendChild(g);
    document.getElementById('scatter-title').textContent = '\u0394 against reference length (tokens); click a point to open its segment';
    var cv2 = document.getElementById('cmp-scatter'), dpr = window.devicePixelRatio || 1, cw = cv2.clientWidth || 600, ch = cv2.clientHeight || 260;
    cv2.width = Math.round(cw * dpr); cv2.height = Math.round(ch * dpr);
    var ctx = cv2.getContext('2d'); ctx.setTransform(dpr, 0, 0, dpr, 0, 0); ctx.clearRect(0, 0, cw, ch);
    var pl = 44, pr = 16, pt = 10, pb = 26, lenMax = Math.ceil(maxLen / 10) * 10;
    var sx = function (v) { return pl + (cw - pl - pr) * v / lenMax; }, sy = function (v) { return pt + (ch - pt - pb) * (R - v) / (2 * R); };
    var cMuted = themeColour('--muted', '#59636e'), cGrid = themeColour('--grid', '#eaeef2'), cFaint = themeColour('--faint', '#8c959f');
    var cGood = themeColour('--good', '#1a7f37'), cBad = themeColour('--bad', '#cf222e'), cFg = themeColour('--fg', '#1f2328');
    ctx.font = '11px system-ui, sans-serif'; ctx.fillStyle = cMuted; ctx.strokeStyle = cGrid;
    [-R, -R / 2, 0, R / 2, R].forEach(function (v) { ctx.beginPath(); ctx.moveTo(pl, sy(v)); ctx.lineTo(cw - pr, sy(v)); ctx.stroke(); ctx.textAlign = 'right'; ctx.fillText(fmtSigned(v, ad), pl - 5, sy(v) + 4); });
    ctx.textAlign = 'center';
    var lenStep = Math.max(10, Math.ceil(lenMax / Math.max(2, Math.floor((cw - pl - pr) / 48)) / 10) * 10);
    for (var lv = 0; lv <= lenMax; lv += lenStep) ctx.fillText(String(lv), sx(lv), ch - 10);
    ctx.strokeStyle = cFaint; ctx.beginPath(); ctx.moveTo(pl, sy(0)); ctx.lineTo(cw - pr, sy(0)); ctx.stroke();
    ctx.globalAlpha = n > 5000 ? 0.25 : 0.55;
    for (k = 0; k < n; k++) {
      i = order[k]; d = sb[i] - sa[i];
      ctx.fillStyle = d === 0 ? cFaint : ((d > 0) === m.higher_is_better ? cGood : cBad);
      ctx.fillRect(sx(rl[i]) - 1.5, sy(d) - 1.5, 3, 3);
    }
    ctx.globalAlpha = 1;
    if (S.selected >= 0) { ctx.strokeStyle = cFg; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(sx(rl[S.selected]), sy(sb[S.selected] - sa[S.selected]), 6, 0, 7); ctx.stroke(); ctx.lineWidth = 1; }
    cv2.onclick = function (e) {
      var rect = cv2.getBoundingClientRect(), px = e.clientX - rect.left, py = e.clientY - rect.top, best = -1, bd = 1e9;
      for (var q = 0; q < order.length; q++) { var j = order[q], dx = sx(rl[j]) - px, dy = sy(sb[j] - sa[j]) - py, dd = dx * dx + dy * dy; if (dd < bd) { bd = dd; best = j; } }
      if (best >= 0 && bd < 400) { select(best); var at = Array.prototype.indexOf.call(order, best); if (at >= 0) scrollToRow(at); }
    };
  }
  function showDetail(i) {
    var t = T(), box = clear(document.getElementById('seg-detail')), st = segText(i), N = null;
    box.appendChild(el('div', { class: 'seg-title', id: 'detail-title', text: 'Segment ' + (i + 1) + ' of ' + int(t.n_segments) }));
    var dl = el('dl');
    if (t.has_source) dl.appendChild(el('dt', { text: 'Source' })), dl.appendChild(el('dd', { class: 'src' }, vis(st.source)));
    st.refs.forEach(function (r, k) { dl.appendChild(el('dt', { text: 'Reference' + (t.n_refs > 1 ? ' ' + (k + 1) : '') })); dl.appendChild(el('dd', { class: 'ref' }, vis(r))); });
    box.appendChild(dl);
    [[S.a, 'a', 'A'], [S.b, 'b', 'B']].forEach(function (x) {
      var s = x[0], blk = el('div', { class: 'hyp-block ' + x[1], id: 'detail-' + x[1] });
      blk.appendChild(el('div', null, el('span', { class: 'tag-' + x[1], text: x[2] + ' ' }), vis(t.systems[s], 80)));
      var dl2 = el('dl');
      dl2.appendChild(el('dt', { text: 'Hypothesis' })); dl2.appendChild(el('dd', { class: 'hyp' }, vis(st.hyps[s])));
      if (t.text_layout.tokens) {
        var toks = st.toks[s] ? st.toks[s].split(' ') : [], marks = st.marks[s], dd = el('dd', { class: 'tokens' });
        toks.forEach(function (tk, k) { var mk = marks.charAt(k) || '0'; dd.appendChild(el('span', { class: 'tok m' + mk, 'data-m': mk, title: mk === '0' ? 'in no reference n-gram' : 'part of a matching ' + mk + '-gram' }, vis(tk))); });
        if (!toks.length) dd.appendChild(el('span', { class: 'muted', text: '(no tokens)' }));
        dl2.appendChild(el('dt', { text: t.tokens_of + '\u2019s tokens' })); dl2.appendChild(dd);
      }
      dl2.appendChild(el('dt', { text: 'Segment scores' })); dl2.appendChild(el('dd', null, segmentStats(i, s)));
      alignments(dl2, st, s);
      blk.appendChild(dl2);
      box.appendChild(blk);
    });
    t.metrics.forEach(function (m) {
      if (m.alignment && (t.text_layout.extras || []).indexOf(m.key) >= 0) box.appendChild(el('div', { class: 'legend align-legend' }, el('span', null, el('span', { class: 'sw tok lcs' }), ' ' + m.alignment.legend)));
    });
    if (t.text_layout.tokens) {
      box.appendChild(el('div', { class: 'legend' }, 'Token colour: longest reference n-gram the token is part of \u2014',
        [0, 1, 2, 3, 4].map(function (k) { return el('span', null, el('span', { class: 'sw tok m' + k }), k === 0 ? 'none' : k + '-gram' + (k === 4 ? ' or longer' : '')); })));
    }
    return N;
  }
  // each metric's token alignment (its "alignment" spec; the strings: JSON made in Python),
  // the marked tokens of the hypothesis and of the reference
  function alignments(dl, st, s) {
    var t = T(), keys = t.text_layout.extras || [];
    t.metrics.forEach(function (m) {
      var x = keys.indexOf(m.key), sp = m.alignment;
      if (x < 0 || !sp) return;
      var a = JSON.parse(st.extras[s][x]), box = el('dd', { class: 'align', 'data-metric': m.key });
      var line = function (kind, label, toks, marked) {
        var at = {}, row = el('div', { class: 'align-row ' + kind }), body = el('div', { class: 'align-toks' });
        marked.forEach(function (k, n) { at[k] = n + 1; });
        row.appendChild(el('span', { class: 'align-label', text: label }));
        toks.forEach(function (tk, k) {
          body.appendChild(el('span', { class: 'tok' + (at[k] ? ' lcs' : ''), 'data-lcs': at[k] || null, title: at[k] ? sp.mark + ' (' + at[k] + ' of ' + marked.length + ')' : null }, vis(tk)));
        });
        if (!toks.length) body.appendChild(el('span', { class: 'muted', text: '(' + sp.empty + ')' }));
        body.appendChild(el('span', { class: 'align-count muted', text: marked.length + ' of ' + plural(toks.length, 'token') + ' ' + sp.mark }));
        row.appendChild(body);
        return row;
      };
      box.appendChild(line('h', sp.hyp, a.h, a.hm));
      box.appendChild(line('r', sp.ref + (t.n_refs > 1 ? ' ' + (a.ref + 1) : ''), a.r, a.rm));
      dl.appendChild(el('dt', { title: sp.legend, text: sp.title }));
      dl.appendChild(box);
    });
  }
  function segmentStats(i, s) {
    var t = T(), parts = el('div');
    var scores = t.metrics.map(function (m, k) { return m.name + ' ' + fmt(sentence(k, s)[i], digitsOf(m)); }).join('   ');
    parts.appendChild(el('div', { class: 'mono', text: scores }));
    // each metric's segment statistics, as the metric's own spec lays them out
    t.metrics.forEach(function (m) {
      if (!m.detail || !m.stats_array) return;
      var arr = A[m.stats_array], w = arr.length / (t.systems.length * t.n_segments), o = (s * t.n_segments + i) * w;
      var fill = function (pattern) { return pattern.replace(/\{(\d+)\}/g, function (_, k) { return count(arr[o + (+k)]); }); };
      if (m.detail.table) {
        var tb = m.detail.table, row1 = el('tr', null, el('th', { class: 'l', text: tb.head[0] })), row2 = el('tr', null, el('td', { class: 'l muted', text: tb.label }));
        tb.head.slice(1).forEach(function (h) { row1.appendChild(el('th', { text: h })); });
        tb.cells.forEach(function (c) { row2.appendChild(el('td', { text: fill(c) })); });
        parts.appendChild(el('table', { class: 'data segstats' }, el('thead', null, row1), el('tbody', null, row2)));
      }
      if (m.detail.line) parts.appendChild(el('div', { class: 'mono small muted', text: fill(m.detail.line) }));
    });
    return parts;
  }

  // ------------------------------------------------------------------ n-grams
  function renderNgrams(root) {
    var t = T();
    root.appendChild(el('h2', { text: 'N-grams matched more, or less, often' }));
    if (!t.text_layout) { lightNote(root); return; }
    if (!t.ngrams || t.systems.length < 2) { root.appendChild(el('p', { class: 'empty', text: t.systems.length < 2 ? 'The report has one system: the n-grams compare two.' : 'No n-gram tables in this report.' })); return; }
    var ng = t.ngrams, orders = ng.pairs[Object.keys(ng.pairs)[0]].length - 1;
    root.appendChild(el('div', { class: 'controls' },
      el('label', null, el('span', { class: 'tag-a', text: 'A' }), systemSelect(S.a, function (v) { S.a = v; order = null; RENDER.ngrams(clear(root)); invalidate(); }, 'System A')),
      el('label', null, el('span', { class: 'tag-b', text: 'B' }), systemSelect(S.b, function (v) { S.b = v; order = null; RENDER.ngrams(clear(root)); invalidate(); }, 'System B')),
      el('label', null, 'Order'), (function () {
        var box = el('span', { class: 'seg-buttons' });
        for (var k = 0; k <= orders; k++) {
          (function (k) { box.appendChild(el('button', { type: 'button', class: 'btn' + (S.ngOrder === k ? ' on' : ''), text: k ? String(k) : 'all', onclick: function () { S.ngOrder = k; RENDER.ngrams(clear(root)); } })); })(k);
        }
        return box;
      })()));
    root.appendChild(el('p', { class: 'note', text: 'Across the corpus, the clipped matches of each reference n-gram (as ' + t.tokens_of + ' counts them: at most as often as the segment\u2019s reference has it), ranked as compare-mt ranks them: ' +
      'by the smoothed ratio (B + ' + ng.alpha + ') / (A + B + ' + 2 * ng.alpha + ') of the two systems\u2019 matches (for \u201cworsened\u201d, A\u2019s), which puts n-grams one system matches consistently more often ahead of frequent ones both match about as often; then by the larger change. ' +
      'The top ' + ng.top_k + ' of ' + (S.ngOrder ? S.ngOrder + '-grams' : 'all orders') + '. \u201cIn refs\u201d: how often ' + t.tokens_of + ' could match it at most. Click an n-gram to list the segments where A and B match it differently.' }));
    if (S.a === S.b) { root.appendChild(el('p', { class: 'empty', text: 'A and B are the same system.' })); return; }
    var lo = Math.min(S.a, S.b), hi = Math.max(S.a, S.b), flip = S.a > S.b, lists = ng.pairs[lo + ',' + hi][S.ngOrder] || [[], []];
    var segArr = A[ng.segments];
    var row = el('div', { class: 'row' });
    [['Improved: B matches more often than A', 0], ['Worsened: B matches less often than A', 1]].forEach(function (x) {
      // entries: [gram, matches of the lower system, of the higher, offset, count]
      var list = lists[flip ? 1 - x[1] : x[1]].map(function (e) { return flip ? [e[0], e[2], e[1], e[3], e[4]] : e; });
      var id = x[1] ? 'ngrams-worse' : 'ngrams-better';
      var body = el('tbody');
      list.forEach(function (e) {
        var g = ng.grams[e[0]], d = e[2] - e[1];
        var open = function () {
          S.segFilter = { set: S.set, a: S.a, b: S.b, label: g[0], segs: segArr.subarray(e[3], e[3] + e[4]) };
          S.q = ''; S.lo = ''; S.hi = ''; order = null; rendered.compare = false; go('compare');
        };
        body.appendChild(el('tr', { class: 'clickable', tabindex: '0', title: 'List the ' + plural(e[4], 'segment') + ' where A and B match \u201c' + visText(g[0], 80) + '\u201d differently',
          onclick: open, onkeydown: function (ev) { if (ev.key === 'Enter') open(); } },
          el('td', { class: 'l mono gram' }, vis(g[0], 120)), el('td', { text: g[1] }),
          el('td', { text: int(e[1]) }), el('td', { text: int(e[2]) }), el('td', { class: d > 0 ? 'pos' : 'neg', text: fmtSigned(d, 0) }), el('td', { class: 'muted', text: int(g[2]) }),
          el('td', { class: 'seg-link', text: int(e[4]) })));
      });
      if (!list.length) body.appendChild(el('tr', null, el('td', { class: 'l muted', colspan: 7, text: 'none' })));
      var title = x[0];
      row.appendChild(el('div', { class: 'col' }, el('h3', { text: title }), el('div', { class: 'table-wrap' }, el('table', { class: 'data ngrams', id: id },
        el('thead', null, el('tr', null, el('th', { class: 'l', text: 'n-gram' }), el('th', { text: 'n' }), el('th', { class: 'tag-a', text: 'A' }), el('th', { class: 'tag-b', text: 'B' }), el('th', { text: '\u0394' }), el('th', { text: 'in refs' }), el('th', { text: 'segments', title: 'segments where A and B match it differently' }))), body)),
        exportBar(id, function () {
          return { name: id, caption: t.name + ': ' + title + ' (A: ' + t.systems[S.a] + ', B: ' + t.systems[S.b] + '; ' + (S.ngOrder ? S.ngOrder + '-grams' : 'all orders') + ')',
            head: ['n-gram', 'n', 'A', 'B', 'delta', 'in refs', 'segments'], align: 'lrrrrrr',
            rows: list.map(function (e) { var g = ng.grams[e[0]]; return [cell(g[0]), cell(g[1]), cell(int(e[1]), e[1]), cell(int(e[2]), e[2]), cell(fmtSigned(e[2] - e[1], 0), e[2] - e[1]), cell(int(g[2]), g[2]), cell(int(e[4]), e[4])]; }) };
        })));
    });
    root.appendChild(row);
  }

  // ------------------------------------------------------------------ buckets
  function lineChart(id, labels, series, yLabel, yMax, box) {
    var W = chartWidth(560, box), H = 280, L = 48, R = 26, TOP = 12, B = 44, n = labels.length;
    // x labels turn when they would run into each other (a phone)
    var longest = 0; labels.forEach(function (l) { longest = Math.max(longest, String(l).length); });
    var turn = n > 1 && (W - L - R) / (n - 1) < longest * 6.6 + 6;
    if (turn) B = 30 + longest * 5;
    var g = sv('svg', { class: 'chart', id: id, viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': yLabel });
    var max = yMax || 0;
    if (!yMax) series.forEach(function (s) { s.values.forEach(function (v) { if (v !== null && v > max) max = v; }); });
    var step = niceStep(Math.max(max, 1) / 4);
    max = Math.max(step, Math.ceil(max / step) * step);
    var x = function (k) { return L + (W - L - R) * (n === 1 ? 0.5 : k / (n - 1)); }, y = function (v) { return TOP + (H - TOP - B) * (1 - v / max); };
    for (var k = 0; k * step <= max + 1e-9; k++) {
      var v = k * step;
      g.appendChild(sv('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
      g.appendChild(sv('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 11, class: 'ax', text: int(Math.round(v)) }));
    }
    labels.forEach(function (lab, k) {
      var at = { x: x(k), y: H - B + 16, 'font-size': 11, class: 'ax', text: lab };
      if (turn) { at['text-anchor'] = 'end'; at.y = H - B + 12; at.transform = 'rotate(-40 ' + x(k).toFixed(1) + ' ' + (H - B + 12) + ')'; }
      else at['text-anchor'] = 'middle';
      g.appendChild(sv('text', at));
    });
    series.slice().sort(function (p, q) { return (p.hot ? 1 : 0) - (q.hot ? 1 : 0); }).forEach(function (s) {
      var d = '', pen = false;
      s.values.forEach(function (v, k) { if (v === null) { pen = false; return; } d += (pen ? 'L' : 'M') + x(k).toFixed(1) + ',' + y(v).toFixed(1); pen = true; });
      g.appendChild(sv('path', { d: d, fill: 'none', class: 'series ' + s.cls, 'stroke-width': s.hot ? 2.5 : 1.2 }, sv('title', { text: visText(s.name) })));
      s.values.forEach(function (v, k) { if (v !== null && s.hot) g.appendChild(sv('circle', { cx: x(k), cy: y(v), r: 3.5, class: 'point ' + s.cls }, sv('title', { text: visText(s.name) + ': ' + v.toFixed(2) }))); });
    });
    if (!turn) g.appendChild(sv('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 12, class: 'lbl', text: yLabel }));
    return g;
  }
  function seriesClass(s) { return s === S.a ? 'sys-a' : s === S.b ? 'sys-b' : 'sys-other'; }
  function bucketTable(id, caption, labels, rows, counts, digits) {
    var t = T(), head = el('tr', null, el('th', { class: 'l', text: 'System' }));
    labels.forEach(function (l) { head.appendChild(el('th', { text: l })); });
    var body = el('tbody');
    if (counts) { var cr = el('tr', null, el('td', { class: 'l muted', text: 'segments' })); counts.forEach(function (c) { cr.appendChild(el('td', { class: 'muted', text: int(c) })); }); body.appendChild(cr); }
    var show = function (v) { return v === null ? '\u2013' : (digits === 0 ? int(v) : v.toFixed(digits)); };
    rows.forEach(function (r) {
      var tr = el('tr', null, el('td', { class: 'name', title: visText(t.systems[r.s]) }, el('span', { class: 'sw key ' + r.cls }), vis(t.systems[r.s], 50)));
      r.values.forEach(function (v) { tr.appendChild(el('td', { text: show(v) })); });
      body.appendChild(tr);
    });
    return el('div', null, el('div', { class: 'table-wrap' }, el('table', { class: 'data buckets', id: id }, el('thead', null, head), body)),
      exportBar(id, function () {
        var out = rows.map(function (r) { return [cell(t.systems[r.s])].concat(r.values.map(function (v) { return cell(show(v), v); })); });
        if (counts) out.unshift([cell('segments')].concat(counts.map(function (c) { return cell(int(c), c); })));
        return { name: id, caption: t.name + ': ' + caption, head: ['System'].concat(labels), align: 'l' + 'r'.repeat(labels.length), rows: out };
      }));
  }
  // a chart and its table side by side while they fit: the chart drawn once its box is placed
  function bucketRow(root, chart, table) {
    var box = el('div', { class: 'chart-col' });
    root.appendChild(el('div', { class: 'row bucket-row' }, box, el('div', { class: 'col' }, table)));
    box.appendChild(chart(box));
  }
  function renderBuckets(root) {
    var t = T(), m = t.metrics[S.bucketMetric], n = t.systems.length, bk = m.buckets;
    root.appendChild(el('h2', { text: 'Buckets' }));
    root.appendChild(el('div', { class: 'controls' },
      n > 1 ? el('label', null, el('span', { class: 'tag-a', text: 'A' }), systemSelect(S.a, function (v) { S.a = v; order = null; RENDER.buckets(clear(root)); invalidate(); }, 'System A')) : null,
      n > 1 ? el('label', null, el('span', { class: 'tag-b', text: 'B' }), systemSelect(S.b, function (v) { S.b = v; order = null; RENDER.buckets(clear(root)); invalidate(); }, 'System B')) : null,
      el('label', null, 'Metric'), metricButtons(S.bucketMetric, function (i) { S.bucketMetric = i; RENDER.buckets(clear(root)); }),
      n > 2 ? el('span', { class: 'note', text: 'A and B in colour, the other systems in grey.' }) : null));
    var rank = m.rank, e = bk.length_edges;
    var lenLabels = ['<' + e[0]]; for (var k = 1; k < e.length; k++) lenLabels.push(e[k - 1] + '\u2013' + (e[k] - 1)); lenLabels.push('\u2265' + e[e.length - 1]);
    var mk = function (values) { return rank.map(function (s) { return { s: s, name: t.systems[s], values: values(s), cls: n > 1 ? seriesClass(s) : 'sys-a', hot: n === 1 || s === S.a || s === S.b }; }); };
    var series = mk(function (s) { return bk.by_length[s]; });
    var lenTitle = 'Corpus ' + m.name + ' by reference length (tokens)';
    root.appendChild(el('h3', { text: lenTitle }));
    bucketRow(root, function (box) { return lineChart('bucket-length', lenLabels, series, 'reference length (tokens of the first reference)', 0, box); },
      bucketTable('bucket-length-table', lenTitle, lenLabels, series, bk.length_counts, 2));
    var se = bk.score_edges, scLabels = ['<' + se[0]]; for (k = 1; k < se.length; k++) scLabels.push(se[k - 1] + '\u2013' + se[k]); scLabels.push('\u2265' + se[se.length - 1]);
    var sseries = mk(function (s) { return bk.by_score[s]; });
    var scTitle = 'Segments by sentence ' + m.name;
    root.appendChild(el('h3', { text: scTitle }));
    bucketRow(root, function (box) { return lineChart('bucket-score', scLabels, sseries, 'sentence ' + m.name + ' bucket (number of segments)', 0, box); },
      bucketTable('bucket-score-table', scTitle + ' (number of segments)', scLabels, sseries, null, 0));
    if (t.word_f) {
      var wf = t.word_f;
      var fseries = mk(function (s) { return wf.systems[s].map(function (b) { return b.f; }); });
      var wfTitle = 'Word F-measure by the word\u2019s frequency in the references';
      root.appendChild(el('h3', { text: wfTitle }));
      root.appendChild(el('p', { class: 'note', text: 'compare-mt\u2019s word accuracy: ' + t.tokens_of + '\u2019s tokens bucketed by how often they occur in the references (0: only in the hypotheses). Precision = clipped matches / hypothesis words, recall = clipped matches / reference words, F = their harmonic mean (%).' }));
      bucketRow(root, function (box) { return lineChart('bucket-wordf', wf.labels, fseries, 'frequency of the word in the references', 100, box); },
        bucketTable('bucket-wordf-table', wfTitle + ' (F, %)', wf.labels, fseries, null, 1));
    }
  }

  var RENDER = { overview: renderOverview, interpretation: renderInterpretation, anatomy: renderAnatomy, compare: renderCompare, ngrams: renderNgrams, buckets: renderBuckets };

  // ------------------------------------------------------------------ start
  function fail(err) {
    var box = document.getElementById('loading');
    if (box) { box.className = 'error'; box.textContent = 'This report could not be unpacked: ' + (err && err.message ? err.message : err); }
    timings.error = String(err && err.message ? err.message : err);
    window.__cybleuReady = 'error';
  }
  function start() {
    var node = document.getElementById('cybleu-data');
    var bytes;
    try { bytes = b64bytes(node.textContent); } catch (e) { fail(e); return; }
    timings.decoded = performance.now();
    var got = node.getAttribute('data-encoding') === 'gzip' ? gunzip(bytes) : Promise.resolve(bytes);
    got.then(function (raw) {
      timings.inflated = performance.now();
      var pk = unpack(raw);
      D = pk.header; A = pk.arrays;
      timings.parsed = performance.now();
      var st = document.getElementById('static'); if (st) st.remove();
      buildShell();
      defaultsForSet();
      var want = (location.hash || '#overview').slice(1);
      if (!VIEWS.some(function (v) { return v[0] === want; })) want = 'overview';
      window.__cybleu = { state: S, go: go, select: function (i) { go('compare'); select(i); }, sortBy: sortBy, order: function () { return order; }, refreshRows: refreshRows, chooseSet: chooseSet, loadTexts: loadTexts,
        exportText: exportText, fmtP: fmtP, latexEscape: latexEscape };
      lastWidth = document.documentElement.clientWidth;
      var ready = function () { timings.firstView = performance.now(); window.__cybleuReady = true; };
      if (want === 'compare' && T().text_layout) {
        // the first view needs the segments: ready once they are shown
        loadTexts().then(function () { go('compare', true); ready(); });
      } else {
        go(want);
        ready();
        // the segments unpack in the background, after the first view is on screen
        setTimeout(function () { loadTexts(); }, 0);
      }
    }).catch(fail);
  }
  window.addEventListener('hashchange', function () { if (D) go((location.hash || '#overview').slice(1)); });
  // charts take the width they are given (a phone, a rotated one): drawn again when it changes
  var lastWidth = 0;
  window.addEventListener('resize', debounce(function () {
    var w = document.documentElement.clientWidth;
    if (!D || Math.abs(w - lastWidth) < 40) return;
    lastWidth = w;
    var keep = S.view; rendered = {}; go(keep, true);
  }, 200));
  start();
})();
