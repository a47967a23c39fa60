/// The report page's stylesheet: a light theme on the system font, a fixed palette of twelve
/// store colours (`--c0`…`--c11`, also read by the page script for the overview strip), and
/// the classes the page script and `MachineSVG` set. Inlined into the page; the page's
/// Content-Security-Policy allows it by its hash.
enum PageStyle {
    static let css = #"""
        :root {
          --bg: #f4f6f9; --panel: #ffffff; --text: #18212f; --muted: #5b6778; --faint: #8a95a5; --line: #e2e7ee;
          --accent: #2458e6; --accent-soft: #e9effe; --red: #c52020; --red-soft: #fdeeee; --green: #167a3a;
          --green-soft: #e7f5ec; --amber: #a85b00; --amber-soft: #fff4dc; --row: 30px;
          --mono: ui-monospace, "SF Mono", SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
          --c0: #2563eb; --c1: #16a34a; --c2: #9333ea; --c3: #ea580c; --c4: #0891b2; --c5: #db2777;
          --c6: #65a30d; --c7: #4f46e5; --c8: #ca8a04; --c9: #0d9488; --c10: #7c3aed; --c11: #475569;
        }
        * { box-sizing: border-box; }
        html, body { margin: 0; height: 100%; }
        body {
          font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
          color: var(--text); background: var(--bg); display: flex; flex-direction: column;
          -webkit-font-smoothing: antialiased;
        }
        button { font: inherit; color: inherit; }
        code, .mono { font-family: var(--mono); font-size: 12.5px; }
        .c0 { --store: var(--c0); } .c1 { --store: var(--c1); } .c2 { --store: var(--c2); } .c3 { --store: var(--c3); }
        .c4 { --store: var(--c4); } .c5 { --store: var(--c5); } .c6 { --store: var(--c6); } .c7 { --store: var(--c7); }
        .c8 { --store: var(--c8); } .c9 { --store: var(--c9); } .c10 { --store: var(--c10); } .c11 { --store: var(--c11); }

        /* Header */
        header.top {
          display: flex; align-items: center; gap: 18px; padding: 12px 20px; background: var(--panel);
          border-bottom: 1px solid var(--line); flex-wrap: wrap;
        }
        .brand { display: flex; align-items: center; gap: 8px; font-weight: 700; color: var(--accent); font-size: 15px; }
        .brand-mark { width: 22px; height: 22px; border-radius: 6px; background: var(--accent); color: #fff;
          display: grid; place-items: center; font-size: 13px; }
        .heading { min-width: 0; flex: 1; }
        .heading h1 { margin: 0; font-size: 17px; font-weight: 650; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .heading .sub { color: var(--muted); font-size: 12.5px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .chips { display: flex; gap: 8px; flex-wrap: wrap; }
        .chip { border-radius: 999px; padding: 3px 11px; font-size: 12.5px; font-weight: 600; background: #eef1f5; color: var(--muted); white-space: nowrap; }
        .chip.ok { background: var(--green-soft); color: var(--green); }
        .chip.bad { background: var(--red-soft); color: var(--red); }
        .chip.warn { background: var(--amber-soft); color: var(--amber); }
        .notice { margin: 10px 14px 0; padding: 8px 12px; border-radius: 8px; background: var(--amber-soft); color: #6b3d00; font-size: 13px; }

        /* Layout */
        main.layout {
          flex: 1; min-height: 0; display: grid; gap: 14px; padding: 14px;
          grid-template-columns: minmax(330px, 410px) minmax(0, 1fr) minmax(300px, 440px);
        }
        .column { min-height: 0; overflow: auto; display: flex; flex-direction: column; gap: 14px; padding-bottom: 4px; }
        .card { background: var(--panel); border: 1px solid var(--line); border-radius: 12px;
          box-shadow: 0 1px 2px rgba(16, 24, 40, .05); min-width: 0; }
        .card > h2, .card-head { display: flex; align-items: baseline; justify-content: space-between; gap: 10px;
          margin: 0; padding: 11px 14px 9px; font-size: 12px; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
        .card-head h2 { margin: 0; font-size: inherit; }
        .card-body { padding: 0 14px 14px; }
        .muted { color: var(--muted); }
        .empty { color: var(--faint); font-style: italic; padding: 4px 0; }

        /* Timeline */
        .timeline { display: flex; flex-direction: column; min-height: 0; overflow: hidden; }
        .overview { padding: 0 12px 8px; }
        .overview canvas { width: 100%; height: 46px; display: block; border-radius: 6px; background: #f7f9fb; cursor: pointer; }
        .rows { flex: 1; overflow: auto; position: relative; border-top: 1px solid var(--line); outline: none; }
        .spacer { position: relative; }
        .row {
          position: absolute; left: 0; right: 0; top: 0; height: var(--row); display: grid; align-items: center; gap: 8px;
          grid-template-columns: 14px 46px minmax(60px, 118px) minmax(0, 1fr); padding: 0 10px 0 8px;
          border-left: 3px solid var(--store); cursor: pointer; font-size: 13px; white-space: nowrap;
        }
        .row:hover { background: #f5f7fa; }
        .row.selected { background: var(--accent-soft); box-shadow: inset 0 0 0 1px #c7d5fb; }
        .row.future { color: var(--faint); }
        .row.future .store { opacity: .6; }
        .row .seq { color: var(--faint); font-family: var(--mono); font-size: 11.5px; text-align: right; }
        .row .what { overflow: hidden; text-overflow: ellipsis; }
        .row .act { font-weight: 600; }
        .row .tr { color: var(--muted); margin-left: 6px; font-size: 12.5px; }
        .row .same { color: var(--faint); font-style: italic; margin-left: 6px; font-size: 12px; }
        .row.problem .act { color: var(--red); }
        .store { display: inline-block; max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: middle;
          font-size: 11.5px; font-weight: 650; padding: 1px 7px; border-radius: 5px; color: var(--store);
          background: color-mix(in srgb, var(--store) 11%, white); }
        .mk { width: 14px; height: 14px; border-radius: 50%; display: grid; place-items: center; font-size: 10px; font-weight: 800; color: #fff; }
        .mk.error { background: var(--red); }
        .mk.warning { background: var(--amber); }
        .mk.after { background: none; border: 1.5px solid var(--red); color: var(--red); }
        .mk.after.warning { border-color: var(--amber); color: var(--amber); }

        /* Stepper */
        .stepper { padding: 12px 14px; display: grid; gap: 10px; }
        .stepper-line { display: flex; align-items: center; gap: 12px; }
        .step-text { flex: 1; min-width: 0; }
        .step-title { font-size: 18px; font-weight: 700; }
        .step-sub { color: var(--muted); font-size: 12.5px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .navs { display: flex; gap: 6px; flex: none; }
        .nav { border: 1px solid var(--line); background: var(--panel); border-radius: 8px; padding: 4px 10px; cursor: pointer; min-width: 38px; white-space: nowrap; }
        #rw-prev-problem, #rw-next-problem { color: var(--red); font-weight: 700; }
        .nav:hover { background: #f2f5f9; }
        .nav:disabled { opacity: .4; cursor: default; }
        input[type=range] { width: 100%; accent-color: var(--accent); margin: 0; }
        .keys { color: var(--faint); font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        kbd + kbd { margin-left: 2px; }
        kbd { font-family: var(--mono); font-size: 11px; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; background: #fafbfc; color: var(--muted); }

        /* Event details */
        dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 5px 14px; margin: 0; font-size: 13px; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        .headline { display: flex; align-items: center; gap: 10px; flex-wrap: wrap; margin-bottom: 10px; font-size: 15px; }
        .headline .act { font-weight: 700; }
        .arrow { color: var(--faint); }
        .case { font-family: var(--mono); font-size: 12.5px; padding: 1px 6px; border-radius: 5px; background: #eef1f5; }
        .badge { font-size: 11px; font-weight: 700; padding: 2px 7px; border-radius: 5px; text-transform: uppercase; letter-spacing: .04em; }
        .badge.error, .badge.fatal { background: var(--red-soft); color: var(--red); }
        .badge.warning { background: var(--amber-soft); color: var(--amber); }
        .badge.quiet { background: #eef1f5; color: var(--muted); }
        a.link, button.link { color: var(--accent); text-decoration: none; cursor: pointer; background: none; border: 0; padding: 0; }
        a.link:hover, button.link:hover { text-decoration: underline; }
        .messages { margin: 10px 0 0; padding: 0; list-style: none; display: grid; gap: 6px; }
        .messages li { background: var(--red-soft); color: #7d1313; border-radius: 8px; padding: 6px 10px; font-size: 13px; }
        .messages li.warning { background: var(--amber-soft); color: #6b3d00; }

        /* Diff */
        .diff { font-family: var(--mono); font-size: 12.5px; display: grid; gap: 8px; }
        .change { border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
        .change .path { padding: 4px 10px; background: #f7f9fb; color: var(--muted); border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
        .change .op { float: right; font-family: system-ui, sans-serif; font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; }
        .line { padding: 3px 10px 3px 26px; position: relative; white-space: pre-wrap; overflow-wrap: anywhere; }
        .line::before { position: absolute; left: 10px; font-weight: 700; }
        .line.del { background: #fdf0f0; color: #8c1d1d; }
        .line.del::before { content: "−"; color: var(--red); }
        .line.ins { background: #ecf8f0; color: #14532d; }
        .line.ins::before { content: "+"; color: var(--green); }

        /* State tree */
        .tree { font-family: var(--mono); font-size: 12.5px; line-height: 1.6; overflow-x: auto; }
        .t-row { display: flex; align-items: baseline; gap: 0; white-space: nowrap; border-radius: 4px; padding-right: 6px; }
        .t-row.changed { background: #fff6d6; }
        .t-toggle { border: 0; background: none; padding: 0 4px 0 0; cursor: pointer; display: inline-flex; align-items: baseline; gap: 0; }
        .t-toggle::before { content: "▸"; display: inline-block; width: 14px; color: var(--faint); transition: transform .1s; }
        .t-toggle[aria-expanded="true"]::before { transform: rotate(90deg); }
        .t-leaf-pad { display: inline-block; width: 14px; }
        .t-key { color: #1d4ed8; }
        .t-key.store-key { color: var(--store); font-weight: 700; }
        .t-idx { color: var(--faint); }
        .t-punct { color: var(--faint); margin-right: 6px; }
        .t-sum { color: var(--faint); }
        .t-children { padding-left: 16px; border-left: 1px dotted #d5dbe3; margin-left: 6px; }
        .v-string { color: #0f6b3a; white-space: pre; }
        .v-number { color: #b4470b; }
        .v-bool, .v-null { color: #7c3aed; }
        .more { margin: 2px 0 2px 14px; font-size: 12px; }

        /* Machines */
        .machines { display: grid; gap: 16px; }
        figure.machine { margin: 0; }
        figure.machine figcaption { display: flex; align-items: center; gap: 8px; margin-bottom: 6px; font-size: 13px; flex-wrap: wrap; }
        .graph-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 10px; background: #fbfcfd; padding: 6px; }
        svg.rw-graph { display: block; max-width: 100%; height: auto; margin: 0 auto; font: 12.5px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        .rw-graph .node rect { fill: #fff; stroke: #9aa6b5; stroke-width: 1.3; }
        .rw-graph .node text { fill: var(--text); text-anchor: middle; font-weight: 600; }
        .rw-graph .node.initial rect { stroke-width: 2; stroke: #66758a; }
        .rw-graph .node.undeclared rect { stroke: var(--red); stroke-dasharray: 4 3; fill: var(--red-soft); }
        .rw-graph .node.current rect { fill: var(--accent); stroke: var(--accent); }
        .rw-graph .node.current text { fill: #fff; }
        .rw-graph .edge path { fill: none; stroke: #55657a; }
        .rw-graph .edge.never path { stroke: #b7c0cc; stroke-dasharray: 5 4; }
        .rw-graph .edge.illegal path { stroke: var(--red); }
        .rw-graph .edge.current path { stroke: var(--accent); stroke-width: 3.2; stroke-dasharray: none; }
        .rw-graph .count { font-size: 11px; font-weight: 700; text-anchor: middle; fill: #3f4b5b; paint-order: stroke; stroke: #fbfcfd; stroke-width: 4px; stroke-linejoin: round; }
        .rw-graph .edge.illegal .count { fill: var(--red); }
        .rw-graph .edge.current .count { fill: var(--accent); }
        .rw-graph .edge.illegal.current path { stroke: var(--red); }
        .rw-graph .edge.illegal.current .count { fill: var(--red); }
        .rw-graph marker path { fill: #55657a; }
        .rw-graph marker.never path { fill: #b7c0cc; }
        .rw-graph marker.illegal path { fill: var(--red); }
        .rw-graph marker.current path { fill: var(--accent); }
        .rw-graph circle.start { fill: #55657a; }
        .rw-graph path.start { stroke: #55657a; stroke-width: 1.5; fill: none; }
        .legend { display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 12px; color: var(--muted); margin-top: 2px; }
        .legend span { display: inline-flex; align-items: center; gap: 6px; }
        .swatch { width: 22px; height: 0; border-top: 2px solid #55657a; display: inline-block; }
        .swatch.never { border-top: 2px dashed #b7c0cc; }
        .swatch.illegal { border-top-color: var(--red); }
        .swatch.current { border-top: 3px solid var(--accent); }
        .swatch.node { width: 14px; height: 12px; border: 0; border-radius: 4px; background: var(--accent); }
        .note { color: var(--muted); font-size: 12.5px; margin: 0; }

        /* Problems */
        ol.problems { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; max-height: 360px; overflow: auto; }
        ol.problems li { border: 1px solid var(--line); border-left: 3px solid var(--red); border-radius: 8px; padding: 7px 10px; cursor: pointer; font-size: 13px; }
        ol.problems li.warning { border-left-color: var(--amber); }
        ol.problems li:hover { background: #f7f9fb; }
        ol.problems li.here { background: var(--red-soft); }
        ol.problems li.warning.here { background: var(--amber-soft); }
        .p-head { display: flex; gap: 8px; align-items: center; margin-bottom: 2px; flex-wrap: wrap; }
        .p-where { color: var(--muted); font-size: 12px; }
        .p-msg { overflow-wrap: anywhere; }

        @media (max-width: 1180px) {
          html, body { height: auto; }
          main.layout { grid-template-columns: minmax(300px, 380px) minmax(0, 1fr); align-items: start; }
          .timeline { position: sticky; top: 14px; height: calc(100vh - 28px); }
          .column { overflow: visible; }
          .column.side { grid-column: 1 / -1; }
          .machines { grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); align-items: start; }
        }
        @media (max-width: 760px) {
          body { height: auto; }
          main.layout { display: flex; flex-direction: column; }
          .timeline { height: 60vh; }
          .column { overflow: visible; }
        }
        """#
}
