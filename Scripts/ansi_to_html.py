#!/usr/bin/env python3
"""Turns a terminal screen captured with `tmux capture-pane -e -p` into an HTML page.

    python3 Scripts/ansi_to_html.py SCREEN.txt PAGE.html COLUMNS ROWS

Scripts/make-pictures calls it, then screenshots the page with headless Chromium. It reads the
SGR colour codes tmux writes (bold, dim, italic, underline, reverse; the 8 and 16 colours, the
256-colour palette and 24-bit colours) and lays the screen out on a grid of COLUMNS × ROWS cells:
every character sits in its own cell (two for a wide one), so a symbol the monospace font lacks
cannot shift the rest of its line. Python's standard library only.
"""

import html
import sys
import unicodedata

FONT_SIZE = 15  # pixels
CELL_WIDTH = 9  # pixels: a cell of the grid, whatever the font's own advance
CELL_HEIGHT = 19
PADDING = 12

# The terminal palette: xterm's 16 colours, in a dark theme.
BASIC = [
    "#1e1e1e", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#d4d4d4",
    "#7f848e", "#ff7b86", "#b5e890", "#ffd68a", "#82c4ff", "#de9cf0", "#7fd3dd", "#ffffff",
]
FOREGROUND = "#d4d4d4"
BACKGROUND = "#1e1e1e"


def palette(index):
    """The colour of entry `index` of the xterm 256-colour palette."""
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[index // 36], steps[index // 6 % 6], steps[index % 6])
    level = 8 + (index - 232) * 10
    return "#%02x%02x%02x" % (level, level, level)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    def apply(self, codes):
        """Applies the parameters of one SGR sequence (ESC [ ... m)."""
        codes = codes or [0]
        i = 0
        while i < len(codes):
            code = codes[i]
            if code == 0:
                self.reset()
            elif code == 1:
                self.bold = True
            elif code == 2:
                self.dim = True
            elif code == 3:
                self.italic = True
            elif code == 4:
                self.underline = True
            elif code == 7:
                self.reverse = True
            elif code == 22:
                self.bold = self.dim = False
            elif code == 23:
                self.italic = False
            elif code == 24:
                self.underline = False
            elif code == 27:
                self.reverse = False
            elif 30 <= code <= 37:
                self.fg = BASIC[code - 30]
            elif 90 <= code <= 97:
                self.fg = BASIC[code - 90 + 8]
            elif code == 39:
                self.fg = None
            elif 40 <= code <= 47:
                self.bg = BASIC[code - 40]
            elif 100 <= code <= 107:
                self.bg = BASIC[code - 100 + 8]
            elif code == 49:
                self.bg = None
            elif code in (38, 48) and i + 1 < len(codes):
                colour = None
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    colour = palette(codes[i + 2] % 256)
                    i += 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    colour = "#%02x%02x%02x" % tuple(min(255, c) for c in codes[i + 2:i + 5])
                    i += 4
                if code == 38:
                    self.fg = colour
                else:
                    self.bg = colour
            i += 1

    def css(self):
        fg, bg = self.fg or FOREGROUND, self.bg
        if self.reverse:
            fg, bg = bg or BACKGROUND, fg
        rules = ["color:" + fg]
        if bg:
            rules.append("background:" + bg)
        if self.bold:
            rules.append("font-weight:bold")
        if self.dim:
            rules.append("opacity:0.6")
        if self.italic:
            rules.append("font-style:italic")
        if self.underline:
            rules.append("text-decoration:underline")
        return ";".join(rules)


def cells(line, style):
    """The characters of one captured line, each with its CSS and its width in cells."""
    out = []
    i = 0
    while i < len(line):
        char = line[i]
        if char == "\x1b" and i + 1 < len(line) and line[i + 1] == "[":
            end = i + 2
            while end < len(line) and not ("@" <= line[end] <= "~"):
                end += 1
            if end < len(line) and line[end] == "m":
                params = line[i + 2:end].replace(":", ";")
                style.apply([int(p) if p.isdigit() else 0 for p in params.split(";")] if params else [])
            i = end + 1
            continue
        if char == "\x1b":  # another escape (OSC and the like): skip to its end
            i += 2
            continue
        if unicodedata.combining(char) and out:
            text, css, width = out[-1]
            out[-1] = (text + char, css, width)
        elif ord(char) >= 32:
            width = 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
            out.append((char, style.css(), width))
        i += 1
    return out


def page(screen, columns, rows):
    style = Style()
    lines = screen.split("\n")[:rows]
    body = []
    for row, line in enumerate(lines):
        column = 0
        for text, css, width in cells(line, style):
            if column >= columns:
                break
            if text == " " and "background" not in css and "underline" not in css:
                column += 1
                continue
            body.append(
                '<span style="left:%dpx;top:%dpx;width:%dpx;%s">%s</span>'
                % (column * CELL_WIDTH, row * CELL_HEIGHT, width * CELL_WIDTH, css, html.escape(text)))
            column += width
    return """<!doctype html>
<meta charset="utf-8">
<style>
  html, body { margin: 0; background: %(bg)s; }
  #screen { position: relative; margin: %(pad)dpx; width: %(w)dpx; height: %(h)dpx;
            font: %(size)dpx/%(cell_h)dpx "DejaVu Sans Mono", "Liberation Mono", monospace; }
  #screen span { position: absolute; height: %(cell_h)dpx; white-space: pre; text-align: center;
                 overflow: visible; }
</style>
<div id="screen">%(body)s</div>
""" % {
        "bg": BACKGROUND, "pad": PADDING, "w": columns * CELL_WIDTH, "h": rows * CELL_HEIGHT,
        "size": FONT_SIZE, "cell_h": CELL_HEIGHT, "body": "".join(body),
    }


def window_size(columns, rows):
    """The browser window that shows the whole grid and its margin, as W,H."""
    return "%d,%d" % (columns * CELL_WIDTH + 2 * PADDING, rows * CELL_HEIGHT + 2 * PADDING)


def main(argv):
    if len(argv) == 3 and argv[1] == "--window-size":
        columns, rows = (int(n) for n in argv[2].split("x"))
        print(window_size(columns, rows))
        return 0
    if len(argv) != 5:
        print("usage: ansi_to_html.py SCREEN.txt PAGE.html COLUMNS ROWS\n"
              "       ansi_to_html.py --window-size COLUMNSxROWS", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8", errors="replace") as source:
        screen = source.read()
    with open(argv[2], "w", encoding="utf-8") as target:
        target.write(page(screen, int(argv[3]), int(argv[4])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
